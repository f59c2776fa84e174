// Package kapitest holds what every test of this module needs: the rest.Config of the server named
// by $KUBECONFIG (kapi, started by src/e2e/go-clients.test.ts, or any cluster), a throwaway
// namespace per test, and polling.
package kapitest

import (
	"context"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ContentTypes names the two wire formats client-go's typed clients speak.
var ContentTypes = []struct {
	Name   string
	Accept string
}{
	{Name: "json", Accept: runtimeJSON},
	{Name: "protobuf", Accept: runtimeProtobuf},
}

const (
	runtimeJSON     = "application/json"
	runtimeProtobuf = "application/vnd.kubernetes.protobuf"
)

// Config loads $KUBECONFIG; the tests never fall back to ~/.kube/config, so they cannot touch a
// cluster nobody pointed them at.
func Config(t testing.TB) *rest.Config {
	t.Helper()
	path := os.Getenv("KUBECONFIG")
	if path == "" {
		t.Fatal("KUBECONFIG is not set: point it at the kubeconfig of the server under test")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	cfg.UserAgent = "kapi-go-clients/" + t.Name()
	return cfg
}

// WithContentType returns a copy of cfg whose requests and accepted answers use contentType
// (protobuf falls back to JSON for kinds without protobuf, as kubectl configures it).
func WithContentType(cfg *rest.Config, contentType string) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.ContentType = contentType
	if contentType == runtimeProtobuf {
		c.AcceptContentTypes = runtimeProtobuf + "," + runtimeJSON
	} else {
		c.AcceptContentTypes = contentType
	}
	return c
}

// Clientset is kubernetes.NewForConfig that fails the test on error.
func Clientset(t testing.TB, cfg *rest.Config) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("clientset: %v", err)
	}
	return cs
}

// Namespace creates a namespace named after prefix with a generated suffix and deletes it when
// the test ends.
func Namespace(t testing.TB, cs kubernetes.Interface, prefix string) string {
	t.Helper()
	ns, err := cs.CoreV1().Namespaces().Create(Context(t), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("creating a namespace: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cs.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// Context is a context that ends with the test, bounded so a hang fails instead of blocking
// `go test` until its own timeout.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Eventually polls cond until it returns nil, failing the test with its last error after timeout.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still failing after %s: %v", what, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
