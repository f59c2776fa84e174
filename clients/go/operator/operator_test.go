package operator

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-logr/logr/testr"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"kapi.local/clients/internal/kapitest"
)

func newScheme(t *testing.T) *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme, AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestOperatorOnEnvtest: envtest installs config/crd into the cluster (with
// USE_EXISTING_CLUSTER=true, the one $KUBECONFIG names), a manager runs WidgetReconciler, and
// the test drives Widgets through the controller-runtime client.
func TestOperatorOnEnvtest(t *testing.T) {
	ctrl.SetLogger(testr.NewWithOptions(t, testr.Options{Verbosity: 0}))
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{"config/crd"},
		ErrorIfCRDPathMissing: true,
		CRDInstallOptions:     envtest.CRDInstallOptions{CleanUpAfterUse: true},
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest start: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("envtest stop (uninstalls the CRD): %v", err)
		}
	})
	if len(env.CRDs) != 1 || env.CRDs[0].Name != "widgets.operator.kapi.dev" {
		t.Fatalf("envtest installed %d CRDs", len(env.CRDs))
	}

	scheme := newScheme(t)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		t.Fatalf("manager: %v", err)
	}
	if err = (&WidgetReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		t.Fatalf("controller: %v", err)
	}
	mctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})

	// Assertions read the server directly, not the manager's cache.
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	ctx := kapitest.Context(t)
	ns := kapitest.Namespace(t, kapitest.Clientset(t, cfg), "operator")

	w := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: ns, Labels: map[string]string{"tier": "a"}}, Spec: WidgetSpec{Size: 3}}
	if err = c.Create(ctx, w); err != nil {
		t.Fatalf("create widget: %v", err)
	}
	if w.Spec.Color != "blue" || w.Generation != 1 {
		t.Errorf("create: color %q (the CRD default is blue) generation %d", w.Spec.Color, w.Generation)
	}

	waitReconciled := func(gen int64, size string) {
		t.Helper()
		kapitest.Eventually(t, 60*time.Second, fmt.Sprintf("widget reconciled at generation %d", gen), func() error {
			var got Widget
			if err := c.Get(ctx, client.ObjectKeyFromObject(w), &got); err != nil {
				return err
			}
			if got.Status.Phase != "Ready" || got.Status.ObservedGeneration != gen || got.Status.ConfigMap != "w1-config" {
				return fmt.Errorf("status %+v", got.Status)
			}
			var cm corev1.ConfigMap
			if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "w1-config"}, &cm); err != nil {
				return err
			}
			if cm.Data["size"] != size {
				return fmt.Errorf("configmap data %v", cm.Data)
			}
			if ref := metav1.GetControllerOf(&cm); ref == nil || ref.UID != got.UID || ref.Kind != "Widget" {
				return fmt.Errorf("configmap controller reference %+v", cm.OwnerReferences)
			}
			return nil
		})
	}
	waitReconciled(1, "3")

	var latest Widget
	if err = c.Get(ctx, client.ObjectKeyFromObject(w), &latest); err != nil {
		t.Fatal(err)
	}
	latest.Spec.Size = 5
	if err = c.Update(ctx, &latest); err != nil {
		t.Fatalf("update widget: %v", err)
	}
	waitReconciled(2, "5")

	// The controller owns the ConfigMap: deleting it brings it back.
	if err = c.Delete(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "w1-config", Namespace: ns}}); err != nil {
		t.Fatal(err)
	}
	waitReconciled(2, "5")

	// Server-side apply through the controller-runtime client.
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "operator.kapi.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w2", "namespace": ns, "labels": map[string]any{"tier": "b"}},
		"spec":     map[string]any{"size": int64(1), "color": "red"},
	}}
	if err = c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner("operator-test"), client.ForceOwnership); err != nil {
		t.Fatalf("apply w2: %v", err)
	}
	var list WidgetList
	if err = c.List(ctx, &list, client.InNamespace(ns), client.MatchingLabels{"tier": "b"}); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "w2" || list.Items[0].Spec.Color != "red" {
		t.Errorf("list tier=b: %+v", list.Items)
	}

	invalid := &Widget{ObjectMeta: metav1.ObjectMeta{Name: "w3", Namespace: ns}, Spec: WidgetSpec{Size: 0}}
	if err = c.Create(ctx, invalid); !apierrors.IsInvalid(err) {
		t.Errorf("size 0 (minimum 1): want Invalid, got %v", err)
	}

	// Its ConfigMap is left to a garbage collector, which kube-apiserver alone does not run.
	if err = c.Delete(ctx, &latest, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil {
		t.Fatal(err)
	}
	kapitest.Eventually(t, 60*time.Second, "widget deleted", func() error {
		if err := c.Get(ctx, client.ObjectKeyFromObject(w), &Widget{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("widget: %v", err)
		}
		return nil
	})
}
