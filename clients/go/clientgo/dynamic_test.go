package clientgo

import (
	"fmt"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"

	"kapi.local/clients/internal/kapitest"
)

var gadgetGVR = schema.GroupVersionResource{Group: "clientgo.kapi.dev", Version: "v1", Resource: "gadgets"}

func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.clientgo.kapi.dev"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "clientgo.kapi.dev",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Required: []string{"size"}, Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"size":  {Type: "integer", Minimum: ptr.To(1.0), Maximum: ptr.To(10.0)},
							"color": {Type: "string", Default: &apiextensionsv1.JSON{Raw: []byte(`"blue"`)}},
						}},
						"status": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"ready": {Type: "boolean"},
						}},
					},
				}},
			}},
		},
	}
}

func gadget(ns, name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "clientgo.kapi.dev/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec":     spec,
	}}
}

// TestDynamicCustomResources creates a CRD with the apiextensions clientset, waits for it to be
// established, and drives its custom resources with the dynamic client: defaults, pruning, schema
// validation, the status subresource, merge patch, list and delete.
func TestDynamicCustomResources(t *testing.T) {
	cfg := kapitest.Config(t)
	ctx := kapitest.Context(t)
	// JSON: TestCRDClientsetProtobuf covers the clientset's own default.
	ext, err := apiextensionsclient.NewForConfig(kapitest.WithContentType(cfg, "application/json"))
	if err != nil {
		t.Fatal(err)
	}
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	if _, err = crds.Create(ctx, gadgetCRD(), metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	t.Cleanup(func() {
		if err := crds.Delete(ctx, "gadgets.clientgo.kapi.dev", metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete CRD: %v", err)
		}
	})
	kapitest.Eventually(t, 30*time.Second, "CRD established", func() error {
		crd, err := crds.Get(ctx, "gadgets.clientgo.kapi.dev", metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, c := range crd.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return nil
			}
		}
		return fmt.Errorf("conditions %+v", crd.Status.Conditions)
	})

	ns := kapitest.Namespace(t, kapitest.Clientset(t, cfg), "dynamic")
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gadgets := dyn.Resource(gadgetGVR).Namespace(ns)
	// The CRD's resource is served a moment after Established on some servers; retry NotFound.
	var created *unstructured.Unstructured
	kapitest.Eventually(t, 30*time.Second, "first custom resource created", func() error {
		created, err = gadgets.Create(ctx, gadget(ns, "g1", map[string]any{"size": int64(3), "unknown": "pruned"}), metav1.CreateOptions{})
		return err
	})
	if color, _, _ := unstructured.NestedString(created.Object, "spec", "color"); color != "blue" {
		t.Errorf("default spec.color = %q, want blue", color)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(created.Object, "spec", "unknown"); found {
		t.Error("spec.unknown was not pruned")
	}
	if created.GetGeneration() != 1 || created.GetUID() == "" {
		t.Errorf("metadata: generation %d uid %q", created.GetGeneration(), created.GetUID())
	}

	_, err = gadgets.Create(ctx, gadget(ns, "too-big", map[string]any{"size": int64(11)}), metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.size") {
		t.Errorf("size 11: want Invalid naming spec.size, got %v", err)
	}
	_, err = gadgets.Create(ctx, gadget(ns, "no-size", map[string]any{}), metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "Required value") {
		t.Errorf("missing size: want Invalid with Required value, got %v", err)
	}

	// The status subresource ignores spec changes; the main resource ignores status changes.
	if err = unstructured.SetNestedField(created.Object, true, "status", "ready"); err != nil {
		t.Fatal(err)
	}
	if err = unstructured.SetNestedField(created.Object, int64(9), "spec", "size"); err != nil {
		t.Fatal(err)
	}
	st, err := gadgets.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update status: %v", err)
	}
	if ready, _, _ := unstructured.NestedBool(st.Object, "status", "ready"); !ready {
		t.Error("status.ready not stored")
	}
	if size, _, _ := unstructured.NestedInt64(st.Object, "spec", "size"); size != 3 || st.GetGeneration() != 1 {
		t.Errorf("status update changed spec: size %d generation %d", size, st.GetGeneration())
	}

	patched, err := gadgets.Patch(ctx, "g1", types.MergePatchType, []byte(`{"spec":{"size":4},"status":{"ready":false}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("merge patch: %v", err)
	}
	size, _, _ := unstructured.NestedInt64(patched.Object, "spec", "size")
	ready, _, _ := unstructured.NestedBool(patched.Object, "status", "ready")
	if size != 4 || !ready || patched.GetGeneration() != 2 {
		t.Errorf("merge patch: size %d ready %v generation %d", size, ready, patched.GetGeneration())
	}
	_, err = gadgets.Patch(ctx, "g1", types.StrategicMergePatchType, []byte(`{"spec":{"size":5}}`), metav1.PatchOptions{})
	if err == nil || apierrors.ReasonForError(err) != metav1.StatusReasonUnsupportedMediaType {
		t.Errorf("strategic merge patch on a custom resource: want UnsupportedMediaType, got %v", err)
	}

	applied, err := gadgets.Apply(ctx, "g2", gadget(ns, "g2", map[string]any{"size": int64(2)}), metav1.ApplyOptions{FieldManager: "dyn"})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if len(applied.GetManagedFields()) != 1 || applied.GetManagedFields()[0].Manager != "dyn" {
		t.Errorf("apply managedFields %+v", applied.GetManagedFields())
	}

	list, err := gadgets.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(list.Items) != 2 || list.GetKind() != "GadgetList" || list.GetResourceVersion() == "" {
		t.Errorf("list: %d items kind %q rv %q", len(list.Items), list.GetKind(), list.GetResourceVersion())
	}
	if err = gadgets.Delete(ctx, "g1", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err = gadgets.Get(ctx, "g1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: want NotFound, got %v", err)
	}
}

// TestCRDClientsetProtobuf: client-go 1.36's generated clientsets send protobuf when the config
// names no content type, the apiextensions one included.
func TestCRDClientsetProtobuf(t *testing.T) {
	cfg := kapitest.Config(t)
	ctx := kapitest.Context(t)
	ext, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	crd := gadgetCRD()
	crd.Name = "protogadgets.clientgo.kapi.dev"
	crd.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "protogadgets", Singular: "protogadget", Kind: "ProtoGadget", ListKind: "ProtoGadgetList"}
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	created, err := crds.Create(ctx, crd, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create CRD in protobuf: %v", err)
	}
	if created.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"].Maximum == nil {
		t.Errorf("schema lost its maximum: %+v", created.Spec.Versions[0].Schema)
	}
	if err = crds.Delete(ctx, crd.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete CRD in protobuf: %v", err)
	}
}
