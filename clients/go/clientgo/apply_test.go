package clientgo

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"

	"kapi.local/clients/internal/kapitest"
)

func managers(fields []metav1.ManagedFieldsEntry) map[string]string {
	out := map[string]string{}
	for _, f := range fields {
		out[f.Manager] = string(f.Operation)
	}
	return out
}

// TestServerSideApply: typed apply configurations, a conflict between two managers (409 with
// FieldManagerConflict causes), force, removal of a field a manager stops applying, and
// Extract* rebuilding one manager's configuration from managedFields.
func TestServerSideApply(t *testing.T) {
	base := kapitest.Config(t)
	for _, ct := range kapitest.ContentTypes {
		t.Run(ct.Name, func(t *testing.T) {
			cs := kapitest.Clientset(t, kapitest.WithContentType(base, ct.Accept))
			ctx := kapitest.Context(t)
			ns := kapitest.Namespace(t, cs, "apply-"+ct.Name)
			cms := cs.CoreV1().ConfigMaps(ns)

			first, err := cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithData(map[string]string{"shared": "a", "only-a": "a"}),
				metav1.ApplyOptions{FieldManager: "mgr-a"})
			if err != nil {
				t.Fatalf("apply a: %v", err)
			}
			if first.Data["shared"] != "a" || managers(first.ManagedFields)["mgr-a"] != "Apply" {
				t.Fatalf("apply a: data %v managers %v", first.Data, managers(first.ManagedFields))
			}

			_, err = cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithData(map[string]string{"shared": "b"}),
				metav1.ApplyOptions{FieldManager: "mgr-b"})
			if !apierrors.IsConflict(err) {
				t.Fatalf("apply b over a: want Conflict, got %v", err)
			}
			status, ok := err.(apierrors.APIStatus)
			if !ok {
				t.Fatalf("apply b: %T is no APIStatus", err)
			}
			st := status.Status()
			if st.Message != `Apply failed with 1 conflict: conflict with "mgr-a": .data.shared` {
				t.Errorf("conflict message %q", st.Message)
			}
			if st.Details == nil || len(st.Details.Causes) != 1 || st.Details.Causes[0].Type != metav1.CauseTypeFieldManagerConflict ||
				st.Details.Causes[0].Field != ".data.shared" {
				t.Errorf("conflict details %+v", st.Details)
			}

			forced, err := cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithData(map[string]string{"shared": "b"}),
				metav1.ApplyOptions{FieldManager: "mgr-b", Force: true})
			if err != nil {
				t.Fatalf("forced apply b: %v", err)
			}
			if forced.Data["shared"] != "b" || forced.Data["only-a"] != "a" {
				t.Errorf("forced apply: data %v", forced.Data)
			}
			extracted, err := corev1ac.ExtractConfigMap(forced, "mgr-a")
			if err != nil {
				t.Fatalf("extract a: %v", err)
			}
			if len(extracted.Data) != 1 || extracted.Data["only-a"] != "a" {
				t.Errorf("mgr-a lost .data.shared to the forced apply, so it owns only only-a; extracted %v", extracted.Data)
			}

			// mgr-a applies without only-a: the field it alone owned goes away.
			pruned, err := cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithLabels(map[string]string{"by": "a"}),
				metav1.ApplyOptions{FieldManager: "mgr-a"})
			if err != nil {
				t.Fatalf("apply a again: %v", err)
			}
			if _, ok := pruned.Data["only-a"]; ok || pruned.Data["shared"] != "b" || pruned.Labels["by"] != "a" {
				t.Errorf("re-apply: data %v labels %v", pruned.Data, pruned.Labels)
			}

			// An update by another client is recorded as an Update operation.
			pruned.Data["shared"] = "c"
			updated, err := cms.Update(ctx, pruned, metav1.UpdateOptions{FieldManager: "editor"})
			if err != nil {
				t.Fatalf("update: %v", err)
			}
			if m := managers(updated.ManagedFields); m["editor"] != "Update" || m["mgr-a"] != "Apply" {
				t.Errorf("managers after update: %v", m)
			}
		})
	}
}

// TestServerSideApplyDeployment applies a nested object with list-map merge keys (containers by
// name, ports by containerPort/protocol) from two managers.
func TestServerSideApplyDeployment(t *testing.T) {
	cs := kapitest.Clientset(t, kapitest.WithContentType(kapitest.Config(t), "application/vnd.kubernetes.protobuf"))
	ctx := kapitest.Context(t)
	ns := kapitest.Namespace(t, cs, "apply-deploy")
	deps := cs.AppsV1().Deployments(ns)
	labels := map[string]string{"app": "web"}

	base := appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().
		WithReplicas(1).
		WithSelector(metav1ac.LabelSelector().WithMatchLabels(labels)).
		WithTemplate(corev1ac.PodTemplateSpec().WithLabels(labels).WithSpec(corev1ac.PodSpec().
			WithContainers(corev1ac.Container().WithName("web").WithImage("nginx:1.27")))))
	if _, err := deps.Apply(ctx, base, metav1.ApplyOptions{FieldManager: "owner"}); err != nil {
		t.Fatalf("apply owner: %v", err)
	}
	sidecar := appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().
		WithTemplate(corev1ac.PodTemplateSpec().WithSpec(corev1ac.PodSpec().
			WithContainers(corev1ac.Container().WithName("proxy").WithImage("envoy:1")))))
	got, err := deps.Apply(ctx, sidecar, metav1.ApplyOptions{FieldManager: "injector"})
	if err != nil {
		t.Fatalf("apply injector: %v", err)
	}
	c := got.Spec.Template.Spec.Containers
	if len(c) != 2 || c[0].Name != "web" || c[1].Name != "proxy" || *got.Spec.Replicas != 1 {
		t.Fatalf("containers merged by name: %+v replicas %d", c, *got.Spec.Replicas)
	}
	_, err = deps.Apply(ctx, appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(3)),
		metav1.ApplyOptions{FieldManager: "injector"})
	if !apierrors.IsConflict(err) {
		t.Errorf("injector taking .spec.replicas: want Conflict, got %v", err)
	}
	dry, err := deps.Apply(ctx, appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(3)),
		metav1.ApplyOptions{FieldManager: "injector", Force: true, DryRun: []string{metav1.DryRunAll}})
	if err != nil || *dry.Spec.Replicas != 3 {
		t.Fatalf("dry-run forced apply: %v", err)
	}
	now, err := deps.Get(ctx, "web", metav1.GetOptions{})
	if err != nil || *now.Spec.Replicas != 1 {
		t.Errorf("dry run changed the object: %v", err)
	}
}
