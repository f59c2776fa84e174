// Command etcd is the etcd the oracle kube-apiserver stores into: a release newer than Debian's
// 3.4 (which lacks the progress requests that watches with sendInitialEvents and bookmarks
// need). Only this entry point lives here; the server comes from go.etcd.io/etcd/server/v3 at
// the version pinned in go.mod.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
