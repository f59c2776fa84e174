package clientgo

import (
	"errors"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"kapi.local/clients/internal/kapitest"
)

// TestTypedConfigMaps runs the typed client's CRUD, conflicts and errors once per wire format.
func TestTypedConfigMaps(t *testing.T) {
	base := kapitest.Config(t)
	for _, ct := range kapitest.ContentTypes {
		t.Run(ct.Name, func(t *testing.T) {
			cs := kapitest.Clientset(t, kapitest.WithContentType(base, ct.Accept))
			ctx := kapitest.Context(t)
			ns := kapitest.Namespace(t, cs, "typed-cm-"+ct.Name)
			cms := cs.CoreV1().ConfigMaps(ns)

			created, err := cms.Create(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: "crud", Labels: map[string]string{"app": "x"}},
				Data:       map[string]string{"a": "1"},
				BinaryData: map[string][]byte{"bin": {0, 1, 2, 255}},
			}, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			if created.UID == "" || created.ResourceVersion == "" || created.CreationTimestamp.IsZero() || created.Namespace != ns {
				t.Fatalf("create returned incomplete metadata: %+v", created.ObjectMeta)
			}
			if string(created.BinaryData["bin"]) != "\x00\x01\x02\xff" {
				t.Errorf("binaryData = %q", created.BinaryData["bin"])
			}

			_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "crud"}}, metav1.CreateOptions{})
			if !apierrors.IsAlreadyExists(err) {
				t.Errorf("second create: want AlreadyExists, got %v", err)
			}
			_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "Bad_Name"}}, metav1.CreateOptions{})
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "metadata.name") {
				t.Errorf("invalid name: want Invalid naming metadata.name, got %v", err)
			}

			got, err := cms.Get(ctx, "crud", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("get: %v", err)
			}
			if got.ResourceVersion != created.ResourceVersion || got.UID != created.UID {
				t.Errorf("get: rv/uid %s/%s, created %s/%s", got.ResourceVersion, got.UID, created.ResourceVersion, created.UID)
			}

			got.Data["a"] = "2"
			updated, err := cms.Update(ctx, got, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("update: %v", err)
			}
			if updated.Data["a"] != "2" || updated.ResourceVersion == got.ResourceVersion {
				t.Errorf("update: data %v rv %s (was %s)", updated.Data, updated.ResourceVersion, got.ResourceVersion)
			}

			got.Data["a"] = "stale"
			_, err = cms.Update(ctx, got, metav1.UpdateOptions{})
			if !apierrors.IsConflict(err) {
				t.Errorf("stale update: want Conflict, got %v", err)
			}

			patched, err := cms.Patch(ctx, "crud", types.StrategicMergePatchType, []byte(`{"data":{"b":"3"}}`), metav1.PatchOptions{})
			if err != nil {
				t.Fatalf("strategic merge patch: %v", err)
			}
			if patched.Data["a"] != "2" || patched.Data["b"] != "3" {
				t.Errorf("patch: data %v", patched.Data)
			}
			patched, err = cms.Patch(ctx, "crud", types.JSONPatchType, []byte(`[{"op":"test","path":"/data/b","value":"3"},{"op":"remove","path":"/data/a"}]`), metav1.PatchOptions{})
			if err != nil {
				t.Fatalf("json patch: %v", err)
			}
			if _, ok := patched.Data["a"]; ok || patched.Data["b"] != "3" {
				t.Errorf("json patch: data %v", patched.Data)
			}

			dry, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dry"}}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if err != nil || dry.Name != "dry" {
				t.Fatalf("dry-run create: %v", err)
			}
			if _, err = cms.Get(ctx, "dry", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("dry-run create stored the object: %v", err)
			}

			if _, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "other", Labels: map[string]string{"app": "y"}}}, metav1.CreateOptions{}); err != nil {
				t.Fatalf("create other: %v", err)
			}
			list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "app=x"})
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			if len(list.Items) != 1 || list.Items[0].Name != "crud" || list.ResourceVersion == "" {
				t.Errorf("list app=x: %d items, rv %q", len(list.Items), list.ResourceVersion)
			}
			// Selected by label: servers without kube-controller-manager have no kube-root-ca.crt.
			page, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "app", Limit: 1})
			if err != nil {
				t.Fatalf("list limit=1: %v", err)
			}
			if len(page.Items) != 1 || page.Continue == "" {
				t.Fatalf("list limit=1: %d items, continue %q", len(page.Items), page.Continue)
			}
			rest, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "app", Limit: 10, Continue: page.Continue})
			if err != nil {
				t.Fatalf("list continue: %v", err)
			}
			if n := len(page.Items) + len(rest.Items); n != 2 || rest.Continue != "" {
				t.Errorf("paged list: %d items in all, last continue %q", n, rest.Continue)
			}

			if err = cms.Delete(ctx, "crud", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr.To(types.UID("wrong"))}}); !apierrors.IsConflict(err) {
				t.Errorf("delete with a wrong uid precondition: want Conflict, got %v", err)
			}
			if err = cms.Delete(ctx, "crud", metav1.DeleteOptions{}); err != nil {
				t.Fatalf("delete: %v", err)
			}
			_, err = cms.Get(ctx, "crud", metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				t.Errorf("get after delete: want NotFound, got %v", err)
			}
			if err = cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{FieldSelector: "metadata.name=other"}); err != nil {
				t.Fatalf("deletecollection: %v", err)
			}
			if _, err = cms.Get(ctx, "other", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("get after deletecollection: want NotFound, got %v", err)
			}
		})
	}
}

func deployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "web", Image: "nginx:1.27",
					Ports: []corev1.ContainerPort{{ContainerPort: 80}},
				}}},
			},
		},
	}
}

// TestTypedDeployments covers defaulting, the scale and status subresources and generation.
func TestTypedDeployments(t *testing.T) {
	base := kapitest.Config(t)
	for _, ct := range kapitest.ContentTypes {
		t.Run(ct.Name, func(t *testing.T) {
			cs := kapitest.Clientset(t, kapitest.WithContentType(base, ct.Accept))
			ctx := kapitest.Context(t)
			ns := kapitest.Namespace(t, cs, "typed-deploy-"+ct.Name)
			deps := cs.AppsV1().Deployments(ns)

			created, err := deps.Create(ctx, deployment("web"), metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			if created.Generation != 1 {
				t.Errorf("generation = %d, want 1", created.Generation)
			}
			// Defaults kube-apiserver applies, seen through the client's decoder.
			if created.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType ||
				created.Spec.RevisionHistoryLimit == nil || *created.Spec.RevisionHistoryLimit != 10 ||
				created.Spec.Template.Spec.Containers[0].TerminationMessagePath != "/dev/termination-log" ||
				created.Spec.Template.Spec.Containers[0].Ports[0].Protocol != corev1.ProtocolTCP ||
				created.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
				t.Errorf("defaults missing: %+v", created.Spec)
			}

			scale, err := deps.GetScale(ctx, "web", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("get scale: %v", err)
			}
			if scale.Spec.Replicas != 2 || scale.Status.Selector != "app=web" {
				t.Errorf("scale: %+v", scale)
			}
			scale.Spec.Replicas = 5
			if _, err = deps.UpdateScale(ctx, "web", scale, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("update scale: %v", err)
			}
			_, err = deps.UpdateScale(ctx, "web", &autoscalingv1.Scale{
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
				Spec:       autoscalingv1.ScaleSpec{Replicas: -1},
			}, metav1.UpdateOptions{})
			if !apierrors.IsInvalid(err) {
				t.Errorf("negative scale: want Invalid, got %v", err)
			}

			got, err := deps.Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				t.Fatalf("get: %v", err)
			}
			if *got.Spec.Replicas != 5 || got.Generation != 2 {
				t.Errorf("after scale: replicas %d generation %d", *got.Spec.Replicas, got.Generation)
			}

			got.Status.ObservedGeneration = got.Generation
			got.Status.Replicas = 5
			got.Spec.Replicas = ptr.To[int32](7) // ignored by the status subresource
			st, err := deps.UpdateStatus(ctx, got, metav1.UpdateOptions{})
			if err != nil {
				t.Fatalf("update status: %v", err)
			}
			if st.Status.Replicas != 5 || *st.Spec.Replicas != 5 {
				t.Errorf("update status: status.replicas %d spec.replicas %d", st.Status.Replicas, *st.Spec.Replicas)
			}

			patched, err := deps.Patch(ctx, "web", types.StrategicMergePatchType,
				[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}`), metav1.PatchOptions{})
			if err != nil {
				t.Fatalf("patch: %v", err)
			}
			c := patched.Spec.Template.Spec.Containers
			if len(c) != 1 || c[0].Image != "nginx:1.28" || len(c[0].Ports) != 1 || patched.Generation != 3 {
				t.Errorf("patch merged containers by name wrongly: %+v generation %d", c, patched.Generation)
			}

			bad := deployment("bad")
			bad.Spec.Selector.MatchLabels = map[string]string{"app": "other"}
			_, err = deps.Create(ctx, bad, metav1.CreateOptions{})
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.template.metadata.labels") {
				t.Errorf("selector mismatch: want Invalid naming spec.template.metadata.labels, got %v", err)
			}

			if err = deps.Delete(ctx, "web", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}); err != nil {
				t.Fatalf("delete: %v", err)
			}
			kapitest.Eventually(t, 30*time.Second, "deployment gone", func() error {
				_, err := deps.Get(ctx, "web", metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					return nil
				}
				if err == nil {
					return errors.New("still there")
				}
				return err
			})
		})
	}
}
