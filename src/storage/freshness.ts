// Reads at a resourceVersion the store has not reached yet. kube-apiserver serves them from its
// watch cache, which waits up to 3 seconds (blockTimeout) for the revision to arrive before it
// answers "Too large resource version"; kapi waits on the store's revision the same way.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (waitUntilFreshAndBlock).
import type { Backend } from './backend.ts';

/** kube's watch cache blockTimeout. */
export const FRESHNESS_WAIT_MS = 3000;
const POLL_MS = 50;

/**
 * Resolves the store's current revision once it is at least `minimum`, or the newest one seen
 * when `waitMs` passed first. Polls: no backend offers a cheaper "revision reached" signal
 * shared by both, and the wait is short and bounded.
 */
export async function waitForRevision(backend: Backend, minimum: number, waitMs = FRESHNESS_WAIT_MS): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rev = await backend.currentRevision();
    const left = deadline - Date.now();
    if (rev >= minimum || left <= 0) return rev;
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, left)));
  }
}
