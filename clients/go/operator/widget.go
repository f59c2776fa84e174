// Package operator is a tiny controller-runtime operator: Widgets (operator.kapi.dev/v1) get a
// ConfigMap they own and a status saying so. Its tests run it with envtest against the server
// $KUBECONFIG names (USE_EXISTING_CLUSTER=true).
package operator

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the API of config/crd/widgets.yaml.
var GroupVersion = schema.GroupVersion{Group: "operator.kapi.dev", Version: "v1"}

// AddToScheme registers Widget and WidgetList.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

type WidgetSpec struct {
	Size  int32  `json:"size"`
	Color string `json:"color,omitempty"`
}

type WidgetStatus struct {
	Phase              string `json:"phase,omitempty"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	ConfigMap          string `json:"configMap,omitempty"`
}

type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec"`
	Status            WidgetStatus `json:"status,omitempty"`
}

type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

// The deep copies controller-gen would generate; spec and status hold only values.

func (w *Widget) DeepCopyInto(out *Widget) {
	*out = *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

func (w *Widget) DeepCopy() *Widget {
	out := new(Widget)
	w.DeepCopyInto(out)
	return out
}

func (w *Widget) DeepCopyObject() runtime.Object { return w.DeepCopy() }

func (l *WidgetList) DeepCopyObject() runtime.Object {
	out := &WidgetList{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	out.Items = make([]Widget, len(l.Items))
	for i := range l.Items {
		l.Items[i].DeepCopyInto(&out.Items[i])
	}
	return out
}
