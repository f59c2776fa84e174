package operator

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// WidgetReconciler keeps a ConfigMap "<widget>-config" with the widget's size and color, owned by
// the widget (so the garbage collector removes it with the widget), and reports it in the status.
type WidgetReconciler struct {
	client.Client
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !w.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-config", Namespace: w.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Data = map[string]string{"size": fmt.Sprint(w.Spec.Size), "color": w.Spec.Color}
		return controllerutil.SetControllerReference(&w, cm, r.Scheme())
	}); err != nil {
		return ctrl.Result{}, err
	}
	if w.Status.ObservedGeneration == w.Generation && w.Status.Phase == "Ready" {
		return ctrl.Result{}, nil
	}
	patch := client.MergeFrom(w.DeepCopy())
	w.Status = WidgetStatus{Phase: "Ready", ObservedGeneration: w.Generation, ConfigMap: cm.Name}
	if err := r.Status().Patch(ctx, &w, patch); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// SetupWithManager watches Widgets and the ConfigMaps they own.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&Widget{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
