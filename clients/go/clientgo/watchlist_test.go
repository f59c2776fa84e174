package clientgo

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"kapi.local/clients/internal/kapitest"
)

func createConfigMaps(t *testing.T, ctx context.Context, cms interface {
	Create(context.Context, *corev1.ConfigMap, metav1.CreateOptions) (*corev1.ConfigMap, error)
}, n int) {
	t.Helper()
	for i := range n {
		if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%02d", i), Labels: map[string]string{"wl": "1"}}, Data: map[string]string{"i": fmt.Sprint(i)}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWatchListStream: a watch with sendInitialEvents=true streams the current objects as ADDED,
// then a BOOKMARK annotated k8s.io/initial-events-end, then later changes.
func TestWatchListStream(t *testing.T) {
	base := kapitest.Config(t)
	for _, ct := range kapitest.ContentTypes {
		t.Run(ct.Name, func(t *testing.T) {
			cs := kapitest.Clientset(t, kapitest.WithContentType(base, ct.Accept))
			ctx := kapitest.Context(t)
			ns := kapitest.Namespace(t, cs, "watchlist-"+ct.Name)
			cms := cs.CoreV1().ConfigMaps(ns)
			createConfigMaps(t, ctx, cms, 5)

			w, err := cms.Watch(ctx, metav1.ListOptions{
				LabelSelector:        "wl",
				SendInitialEvents:    ptr.To(true),
				ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
				AllowWatchBookmarks:  true,
			})
			if err != nil {
				t.Fatalf("watch-list: %v", err)
			}
			defer w.Stop()
			next := func() watch.Event {
				t.Helper()
				select {
				case ev, ok := <-w.ResultChan():
					if !ok {
						t.Fatal("watch closed early")
					}
					return ev
				case <-time.After(30 * time.Second):
					t.Fatal("no watch event in 30s")
				}
				return watch.Event{}
			}
			added := map[string]bool{}
			for {
				ev := next()
				if ev.Type == watch.Bookmark {
					cm, ok := ev.Object.(*corev1.ConfigMap)
					if !ok {
						t.Fatalf("bookmark object is %T", ev.Object)
					}
					if cm.Annotations[metav1.InitialEventsAnnotationKey] != "true" {
						continue // a progress bookmark before the end of the initial events
					}
					if cm.ResourceVersion == "" {
						t.Error("initial-events-end bookmark without a resourceVersion")
					}
					break
				}
				if ev.Type != watch.Added {
					t.Fatalf("initial event %s, want ADDED: %v", ev.Type, ev.Object)
				}
				added[ev.Object.(*corev1.ConfigMap).Name] = true
			}
			if len(added) != 5 || !added["cm-00"] || !added["cm-04"] {
				t.Errorf("initial events for %v", added)
			}
			if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "late", Labels: map[string]string{"wl": "1"}}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			for {
				ev := next()
				if ev.Type == watch.Bookmark {
					continue
				}
				if ev.Type != watch.Added || ev.Object.(*corev1.ConfigMap).Name != "late" {
					t.Fatalf("after the initial events: %s %v", ev.Type, ev.Object)
				}
				break
			}
		})
	}
}

// TestReflectorUsesWatchList: with client-go's WatchListClient gate on (its default in 1.36, and
// KUBE_FEATURE_WatchListClient=true in the test's environment), a reflector fills its store from
// one watch-list stream: it never falls back to a LIST.
func TestReflectorUsesWatchList(t *testing.T) {
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Fatal("client-go's WatchListClient feature gate is off")
	}
	cs := kapitest.Clientset(t, kapitest.WithContentType(kapitest.Config(t), "application/vnd.kubernetes.protobuf"))
	ctx := kapitest.Context(t)
	ns := kapitest.Namespace(t, cs, "reflector")
	cms := cs.CoreV1().ConfigMaps(ns)
	createConfigMaps(t, ctx, cms, 20)

	var lists, watchLists atomic.Int32
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			// KUBE_WATCHLIST_INCONSISTENCY_DETECTOR's check lists at the exact synced revision;
			// only other lists are fallbacks.
			if o.ResourceVersionMatch != metav1.ResourceVersionMatchExact {
				lists.Add(1)
			}
			o.LabelSelector = "wl"
			return cms.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			if o.SendInitialEvents != nil && *o.SendInitialEvents {
				watchLists.Add(1)
			}
			o.LabelSelector = "wl"
			return cms.Watch(ctx, o)
		},
	}
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	r := cache.NewReflector(lw, &corev1.ConfigMap{}, store, 0)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { r.RunWithContext(rctx); close(done) }()
	defer func() { cancel(); <-done }()

	kapitest.Eventually(t, 30*time.Second, "reflector store filled", func() error {
		if n := len(store.ListKeys()); n != 20 || r.LastSyncResourceVersion() == "" {
			return fmt.Errorf("%d objects, last synced rv %q", n, r.LastSyncResourceVersion())
		}
		return nil
	})
	if lists.Load() != 0 || watchLists.Load() != 1 {
		t.Errorf("reflector made %d lists and %d watch-list requests; want 0 and 1", lists.Load(), watchLists.Load())
	}
	if err := cms.Delete(ctx, "cm-07", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	kapitest.Eventually(t, 30*time.Second, "delete reaches the store", func() error {
		if _, ok, _ := store.GetByKey(ns + "/cm-07"); ok {
			return fmt.Errorf("cm-07 still in the store")
		}
		return nil
	})
}
