// client-go's ListerWatcher (tools/cache/listwatch.go): what an informer follows. A registry
// Store is one; so is anything that lists and watches the same way.
// Counterpart of k8s.io/client-go/tools/cache/listwatch.go.
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';

export interface ListWatcher<T extends KubeObject = KubeObject> {
  /** A consistent list; its metadata.resourceVersion is where a watch resumes. Rejects with a StatusError when storage fails. */
  list(ctx: RequestContext, opts: { readonly resourceVersion?: string }): Promise<KubeList<T>>;
  /**
   * Every change after `resourceVersion`; rejects with reason Expired (410) when that revision
   * was compacted, and may end with an ERROR event carrying the same.
   */
  watch(ctx: RequestContext, opts: { readonly resourceVersion?: string; readonly allowWatchBookmarks?: boolean }): Promise<Watch<T>>;
}
