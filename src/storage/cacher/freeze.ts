// Objects in the watch cache are shared by every list, get and watch event that returns them:
// freezing them makes a consumer that would mutate one fail loudly instead of corrupting what
// every other reader sees (kube's cacher relies on callers deep-copying; JavaScript can enforce it).
// No Go counterpart.
import type { KubeObject } from '../../apimachinery/meta/types.ts';

function freeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) freeze(v);
}

/** Freezes obj and everything it holds; returns obj. */
export function deepFreeze<T extends KubeObject>(obj: T): T {
  freeze(obj);
  return obj;
}
