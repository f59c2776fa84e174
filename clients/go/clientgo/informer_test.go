package clientgo

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"kapi.local/clients/internal/kapitest"
)

type cmEvent struct {
	kind string // add, update, delete
	name string
	data string
}

// TestSharedInformer: a shared informer (watch-list by default in client-go 1.36) sees the initial
// objects, then adds, updates and deletes, in order; its lister follows.
func TestSharedInformer(t *testing.T) {
	base := kapitest.Config(t)
	for _, ct := range kapitest.ContentTypes {
		t.Run(ct.Name, func(t *testing.T) {
			cs := kapitest.Clientset(t, kapitest.WithContentType(base, ct.Accept))
			ctx := kapitest.Context(t)
			ns := kapitest.Namespace(t, cs, "informer-"+ct.Name)
			cms := cs.CoreV1().ConfigMaps(ns)
			if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "before"}, Data: map[string]string{"v": "0"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}

			factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
			inf := factory.Core().V1().ConfigMaps()
			events := make(chan cmEvent, 100)
			data := func(o any) string {
				if cm, ok := o.(*corev1.ConfigMap); ok {
					return cm.Data["v"]
				}
				return ""
			}
			_, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc:    func(o any) { events <- cmEvent{"add", o.(*corev1.ConfigMap).Name, data(o)} },
				UpdateFunc: func(_, o any) { events <- cmEvent{"update", o.(*corev1.ConfigMap).Name, data(o)} },
				DeleteFunc: func(o any) {
					if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
						o = d.Obj
					}
					events <- cmEvent{"delete", o.(*corev1.ConfigMap).Name, data(o)}
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			stop := make(chan struct{})
			factory.Start(stop)
			// Shutdown waits for the informers, which end when stop is closed.
			defer func() { close(stop); factory.Shutdown() }()
			for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
				if !ok {
					t.Fatalf("cache of %v never synced", typ)
				}
			}

			want := func(w cmEvent) {
				t.Helper()
				for {
					select {
					case got := <-events:
						if got.name == "kube-root-ca.crt" {
							continue // the namespace's own configmap, added by kapi's controller
						}
						if got != w {
							t.Fatalf("event %+v, want %+v", got, w)
						}
						return
					case <-time.After(30 * time.Second):
						t.Fatalf("no event after 30s, want %+v", w)
					}
				}
			}
			want(cmEvent{"add", "before", "0"})

			cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "watched"}, Data: map[string]string{"v": "1"}}, metav1.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want(cmEvent{"add", "watched", "1"})
			cm.Data["v"] = "2"
			if _, err = cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			want(cmEvent{"update", "watched", "2"})
			lister := inf.Lister().ConfigMaps(ns)
			if got, err := lister.Get("watched"); err != nil || got.Data["v"] != "2" {
				t.Errorf("lister after update: %v %v", got, err)
			}
			if err = cms.Delete(ctx, "watched", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			want(cmEvent{"delete", "watched", "2"})
			if _, err := lister.Get("watched"); err == nil {
				t.Errorf("lister still has the deleted configmap")
			}
		})
	}
}
