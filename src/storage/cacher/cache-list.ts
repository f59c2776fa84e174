// Lists served from the watch cache: which requests it can answer (kube's delegator rules), and
// the list itself with kube's continue tokens, limits and selectors, read from memory at the
// cache's revision or at an older one still in its window.
// Counterpart of k8s.io/apiserver/pkg/storage/cacher/delegator.go and cacher.go (GetList).
import type { LabelFieldPredicate } from '../../apimachinery/fields/predicate.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { decodeContinue, encodeContinue } from '../continue.ts';
import type { ListOptions, ListResult, SelectionPredicate } from '../interfaces.ts';
import { parseResourceVersion } from '../versioner.ts';
import type { WatchCache } from './watch-cache.ts';

const MAX_LIMIT = 2 ** 31 - 1;

/** How a list is answered: by storage, or from the cache at a revision. */
export type ListPlan =
  | { readonly kind: 'delegate' }
  /** Wait until the cache is at the store's current revision (else delegate). */
  | { readonly kind: 'consistent' }
  /** Wait until the cache reaches `minimum`, then read the newest state (all of it for resourceVersion=0). */
  | { readonly kind: 'notOlderThan'; readonly minimum: number; readonly ignoreLimit: boolean }
  /** Read exactly at `rev` (waiting for it when ahead), from `startKey` (a continue token's). */
  | { readonly kind: 'exact'; readonly rev: number; readonly startKey: string };

/**
 * kube's ShouldDelegateList: Exact and continue tokens from the cache when their revision is
 * in its window, NotOlderThan and resourceVersion=0 always, consistent reads once caught up.
 * Anything malformed is left to storage, which rejects it with kube's messages.
 */
export function planList(cache: WatchCache, keyPrefix: string, opts: ListOptions): ListPlan {
  const rv = opts.resourceVersion ?? '';
  let parsed: number;
  try {
    parsed = parseResourceVersion(keyPrefix, rv);
  } catch {
    return { kind: 'delegate' };
  }
  const inWindow = (rev: number): boolean => rev >= cache.oldestRev();
  const exact = (rev: number, startKey = ''): ListPlan => (inWindow(rev) ? { kind: 'exact', rev, startKey } : { kind: 'delegate' });
  const match = opts.resourceVersionMatch ?? '';
  // kube-apiserver v1.36 (asked) answers resourceVersion=0 from its cache whole: limit ignored.
  const notOlderThan: ListPlan = { kind: 'notOlderThan', minimum: parsed, ignoreLimit: rv === '0' };
  if (!opts.recursive) return match === 'Exact' ? { kind: 'delegate' } : rv === '' ? { kind: 'consistent' } : notOlderThan;
  if (match === 'Exact') return exact(parsed);
  if (match === 'NotOlderThan') return notOlderThan;
  if (match !== '') return { kind: 'delegate' };
  if (opts.continue !== undefined && opts.continue !== '') {
    if (rv !== '' && rv !== '0') return { kind: 'delegate' };
    try {
      const c = decodeContinue(opts.continue, keyPrefix);
      return c.revision > 0 ? exact(c.revision, c.key) : { kind: 'delegate' };
    } catch {
      return { kind: 'delegate' };
    }
  }
  if ((opts.limit ?? 0) > 0 && parsed > 0) return exact(parsed);
  if (rv === '') return { kind: 'consistent' };
  return notOlderThan;
}

const hasFields = (p: SelectionPredicate): p is LabelFieldPredicate => 'field' in p;

/** The indexed field and value a predicate requires exactly (pods with spec.nodeName=x), if any. */
export function indexMatch(cache: WatchCache, pred: SelectionPredicate): { field: string; value: string } | undefined {
  if (pred.empty || !hasFields(pred)) return undefined;
  for (const field of cache.indexedFields) {
    const value = pred.field.requiresExactMatch(field);
    if (value !== undefined) return { field, value };
  }
  return undefined;
}

/**
 * Reads a list from memory at `rev` (the cache's revision for a newest read) under `keyPrefix`,
 * from `startKey`, filtered and paged as kube's cacher does: a continue token only when another
 * matching item follows; remainingItemCount only without a selector.
 */
/** What serving a list took (the list metrics): the index used ('' for none) and the objects read. */
export interface ListStats { index: string; fetched: number }

export function listFromCache(cache: WatchCache, keyPrefix: string, rev: number, startKey: string,
  opts: ListOptions, stats?: ListStats): ListResult {
  const pred = opts.predicate;
  const limit = opts.limit !== undefined && opts.limit > 0 ? Math.min(opts.limit, MAX_LIMIT) : 0;
  const items: KubeObject[] = [];
  let lastKey = '';
  let hasMore = false;
  let scanned = 0;
  // The current state and an indexed field: only the objects with its value are looked at.
  const byIndex = rev >= cache.rev ? indexMatch(cache, pred) : undefined;
  const it = byIndex === undefined ? cache.entries(keyPrefix, startKey, rev) : cache.indexed(byIndex.field, byIndex.value, keyPrefix, startKey);
  // Iterated by hand: a for-of that breaks would close the generator the count goes on with.
  for (let r = it.next(); r.done !== true; r = it.next()) {
    const e = r.value;
    scanned++;
    if (!pred.empty && !pred.matches(e.obj)) continue;
    if (limit > 0 && items.length >= limit) { hasMore = true; break; }
    items.push(e.obj);
    lastKey = e.key;
  }
  if (stats !== undefined) {
    stats.index = byIndex === undefined ? '' : `f:${byIndex.field}`;
    stats.fetched = scanned;
  }
  const result: { -readonly [K in keyof ListResult]: ListResult[K] } = { items, resourceVersion: String(rev) };
  if (hasMore && lastKey !== '') {
    result.continue = encodeContinue(`${lastKey}\u0000`, keyPrefix, rev);
    if (pred.empty && byIndex === undefined) {
      // The rest of the range, counted as etcd's count does: from the page's first key on.
      let rest = scanned;
      while (it.next().done !== true) rest++;
      result.remainingItemCount = Math.max(0, rest - limit);
    }
  }
  return result;
}

/** A single-object list (not recursive) from memory: the object under the key, if any. */
export function listOne(cache: WatchCache, key: string, rev: number, opts: ListOptions): ListResult {
  const e = cache.get(key);
  const items = e !== undefined && (opts.predicate.empty || opts.predicate.matches(e.obj)) ? [e.obj] : [];
  return { items, resourceVersion: String(rev) };
}
