// Package envtestassets runs envtest the way operator test suites do, starting kube-apiserver,
// etcd and kubectl from KUBEBUILDER_ASSETS: there, kapi's kube-apiserver command, Debian's etcd
// and kubectl. Run by src/e2e/envtest-assets.test.ts; skipped unless KAPI_ENVTEST_ASSETS=1.
package envtestassets

import (
	"context"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.envtest.kapi.dev"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "envtest.kapi.dev",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"size": {Type: "integer"}}},
					},
				}},
			}},
		},
	}
}

// TestEnvtestStartsKapi: envtest starts the assets' kube-apiserver with its own command line,
// connects with its client certificate (system:masters), installs a CRD, and the client creates
// and reads a ConfigMap and a custom resource.
func TestEnvtestStartsKapi(t *testing.T) {
	if os.Getenv("KAPI_ENVTEST_ASSETS") != "1" {
		t.Skip("KAPI_ENVTEST_ASSETS=1 and KUBEBUILDER_ASSETS (kapi's kube-apiserver, etcd, kubectl) are set by src/e2e/envtest-assets.test.ts")
	}
	env := &envtest.Environment{CRDs: []*apiextensionsv1.CustomResourceDefinition{gadgetCRD()}}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest start: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("envtest stop: %v", err)
		}
	})
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "greeting", Namespace: "default"}, Data: map[string]string{"hello": "world"}}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatalf("create ConfigMap: %v", err)
	}
	var got corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "greeting"}, &got); err != nil {
		t.Fatalf("get ConfigMap: %v", err)
	}
	if got.Data["hello"] != "world" {
		t.Fatalf("ConfigMap data: %v", got.Data)
	}

	g := &unstructured.Unstructured{}
	g.SetGroupVersionKind(schema.GroupVersionKind{Group: "envtest.kapi.dev", Version: "v1", Kind: "Gadget"})
	g.SetNamespace("default")
	g.SetName("g1")
	if err := unstructured.SetNestedField(g.Object, int64(3), "spec", "size"); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, g); err != nil {
		t.Fatalf("create Gadget: %v", err)
	}
	read := &unstructured.Unstructured{}
	read.SetGroupVersionKind(g.GroupVersionKind())
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "g1"}, read); err != nil {
		t.Fatalf("get Gadget: %v", err)
	}
	if size, _, _ := unstructured.NestedInt64(read.Object, "spec", "size"); size != 3 {
		t.Fatalf("Gadget spec.size = %d", size)
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(schema.GroupVersionKind{Group: "envtest.kapi.dev", Version: "v1", Kind: "GadgetList"})
	if err := c.List(ctx, list, client.InNamespace("default")); err != nil || len(list.Items) != 1 {
		t.Fatalf("list Gadgets: %v (%d items)", err, len(list.Items))
	}
}
