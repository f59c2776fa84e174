// What a watch cache answers while it cannot list (a value nobody can decode under its prefix,
// storage down): kube's cacher with ResilientWatchCacheInitialization (GA, locked on in v1.36)
// rejects the reads that need it with 429 and sends the rest to storage.
// Counterpart of the not-ready paths of k8s.io/apiserver/pkg/storage/cacher/{delegator.go,
// cacher.go,ready.go} and calculateRetryAfterForUnreadyCache (util.go).
import { newTooManyRequests, type StatusError } from '../../apimachinery/errors/status-error.ts';
import type { ListOptions } from '../interfaces.ts';

/**
 * The 429 "storage is (re)initializing: <why>", with a Retry-After that grows with the time the
 * cache has been down: e^(0.06 s⁻¹ × downtime), between 1 and 30 seconds.
 */
export function storageInitializing(why: string, downtimeMs: number): StatusError {
  const retryAfter = Math.trunc(Math.min(30, Math.max(1, Math.exp(0.06 * downtimeMs / 1000))));
  return newTooManyRequests(`storage is (re)initializing: ${why}`, retryAfter);
}

/**
 * Whether kube's delegator sends a list to storage while the cache is not ready: a single
 * object, an exact resourceVersion (also a continue token and the legacy limit with a
 * resourceVersion), and a paginated list without selectors. Everything else needs the cache.
 */
export function delegatedWhileUnready(opts: ListOptions): boolean {
  const rv = opts.resourceVersion ?? '';
  const match = opts.resourceVersionMatch ?? '';
  if (!opts.recursive || (match !== '' && match !== 'NotOlderThan')) return true;
  if (match === '' && ((opts.continue ?? '') !== '' || ((opts.limit ?? 0) > 0 && rv !== '' && rv !== '0'))) return true;
  return opts.predicate.empty && (opts.limit ?? 0) > 0;
}
