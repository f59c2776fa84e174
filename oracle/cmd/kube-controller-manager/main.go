// Command kube-controller-manager is the reference controller manager, run against kapi in
// end-to-end tests. Only this entry point lives here; everything else comes from
// k8s.io/kubernetes at the version pinned in ../../go.mod.
package main

import (
	"os"
	// The blank imports are the ones upstream's own main package has: they change behaviour
	// (time zone data for CronJob validation, JSON logging, client and version metrics).
	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
