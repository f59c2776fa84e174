// Watch events as in k8s.io/apimachinery/pkg/watch.
import type { KubeObject, Status } from '../meta/types.ts';

export type WatchEvent<T extends KubeObject = KubeObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  | { readonly type: 'BOOKMARK'; readonly object: KubeObject }
  | { readonly type: 'ERROR'; readonly object: Status };

export interface Watch<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  /** Called only by the consumer. Idempotent. Ends iteration and frees the producer. */
  stop(): void;
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}
