// GetList of the object store, with kube-apiserver's rules for resourceVersion,
// resourceVersionMatch, limit and continue (etcd3 store's GetList).
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/store.go (GetList).
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Backend, RangeResult } from './backend.ts';
import { decodeContinue, encodeContinue } from './continue.ts';
import { isStorageError, StorageError, type Codec, type ListOptions, type ListResult } from './interfaces.ts';
import { decodeAt, parseResourceVersion } from './versioner.ts';
import type { ListStats } from './metrics.ts';

const EXPIRED = 'The resourceVersion for the provided list is too old.';
const INCONSISTENT_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. ' +
  'You can start a new list without the continue parameter, or use the continue token in this response to ' +
  'retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - ' +
  'objects that were created, modified, or deleted between the time the first chunk was returned and now may ' +
  'show up in the list.';

const MAX_LIMIT = 2 ** 31 - 1;

interface ReadPlan {
  /** Revision to read at; 0: the newest (then fixed for later pages). */
  withRev: number;
  /** The list's resourceVersion when fixed up front; 0: the read revision. */
  returnedRV: number;
  /** First key to read (a continue token's key), '' for the start of the range. */
  continueKey: string;
}

/** parseResourceVersion for a list: kube's ValidateListOptions adds "invalid resource version: ". */
function listResourceVersion(key: string, rv: string): number {
  try {
    return parseResourceVersion(key, rv);
  } catch (err) {
    if (!isStorageError(err, 'InvalidError')) throw err;
    throw new StorageError('InvalidError', key, `invalid resource version: ${err.message}`);
  }
}

/** Which revision a list reads at (kube's resolveGetListRev). Rejects with InvalidContinue / InvalidError. */
function planRead(key: string, keyPrefix: string, opts: ListOptions): ReadPlan {
  const rv = opts.resourceVersion ?? '';
  if (opts.recursive && opts.continue !== undefined && opts.continue !== '') {
    const c = decodeContinue(opts.continue, keyPrefix);
    if (rv !== '' && rv !== '0') {
      throw new StorageError('InvalidContinue', key, 'specifying resource version is not allowed when using continue');
    }
    // A negative revision (from a 410's token) continues at the newest revision.
    const at = c.revision > 0 ? c.revision : 0;
    return { withRev: at, returnedRV: at, continueKey: c.key };
  }
  const fromRV = listResourceVersion(key, rv);
  switch (opts.resourceVersionMatch ?? '') {
    case 'NotOlderThan':
      return { withRev: 0, returnedRV: 0, continueKey: '' };
    case 'Exact':
      return { withRev: fromRV, returnedRV: fromRV, continueKey: '' };
    case '': {
      // Legacy: a resourceVersion with a limit reads exactly at it.
      const exact = opts.recursive && (opts.limit ?? 0) > 0 && fromRV > 0 ? fromRV : 0;
      return { withRev: exact, returnedRV: exact, continueKey: '' };
    }
    default:
      throw new StorageError('InvalidError', key, `unknown ResourceVersionMatch value: ${String(opts.resourceVersionMatch)}`);
  }
}

export async function getList(backend: Backend, codec: Codec, pagingLimit: number, key: string,
  opts: ListOptions, stats?: ListStats): Promise<ListResult> {
  const keyPrefix = opts.recursive && !key.endsWith('/') ? `${key}/` : key;
  const plan = planRead(key, keyPrefix, opts);
  const minimum = listResourceVersion(key, opts.resourceVersion ?? '');
  const pred = opts.predicate;
  // A limit no page can reach reads like "no more than all": backends take 32-bit limits
  // (SQLite refuses a float, etcd's int64 a huge double).
  const limit = opts.limit !== undefined && opts.limit > 0 ? Math.min(opts.limit, MAX_LIMIT) : 0;
  const paging = limit > 0;
  const items: KubeObject[] = [];
  let withRev = plan.withRev;
  let chunk = limit;
  let startKey = plan.continueKey !== '' ? plan.continueKey : keyPrefix;
  let lastKey = '';
  let hasMore = false;
  let res: RangeResult;
  for (let first = true; ; first = false) {
    try {
      res = await backend.range(keyPrefix, {
        prefix: opts.recursive, startKey, limit: opts.recursive ? chunk : 0, ...(withRev > 0 ? { revision: withRev } : {}),
      });
    } catch (err) {
      throw listError(err, key, keyPrefix, plan.continueKey, minimum);
    }
    if (first && minimum > res.revision) {
      throw new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${minimum}, current: ${res.revision}`, res.revision);
    }
    // Later pages read at the revision of the first one: one consistent snapshot.
    if (withRev === 0) withRev = res.revision;
    hasMore = res.more;
    if (stats !== undefined) stats.fetched += res.kvs.length;
    for (const kv of res.kvs) {
      if (paging && items.length >= limit) {
        hasMore = true;
        break;
      }
      lastKey = kv.key;
      const obj = decodeAt(codec, kv.value, kv.modRevision);
      if (stats !== undefined) stats.evaluated++;
      if (pred.empty || pred.matches(obj)) items.push(obj);
    }
    if (!hasMore || !paging || items.length >= limit) break;
    // A selector filtered items out: read further, in growing pages (as kube does).
    chunk = Math.min(chunk * 2, Math.max(pagingLimit, limit));
    startKey = `${lastKey}\u0000`;
  }
  const result: { -readonly [K in keyof ListResult]: ListResult[K] } = {
    items,
    resourceVersion: String(plan.returnedRV > 0 ? plan.returnedRV : withRev),
  };
  if (hasMore && lastKey !== '') {
    result.continue = encodeContinue(`${lastKey}\u0000`, keyPrefix, plan.returnedRV > 0 ? plan.returnedRV : withRev);
    // Only without a selector is the rest of the range the rest of the list.
    if (pred.empty) result.remainingItemCount = Math.max(0, res.count - limit);
  }
  return result;
}

function listError(err: unknown, key: string, keyPrefix: string, continueKey: string, minimum: number): unknown {
  if (isStorageError(err, 'TooLargeResourceVersion')) {
    return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${minimum}, current: ${err.revision}`, err.revision);
  }
  if (!isStorageError(err, 'Compacted')) return err;
  if (continueKey === '') return new StorageError('Compacted', key, EXPIRED, err.revision);
  return new StorageError('Compacted', key, INCONSISTENT_CONTINUE, err.revision, encodeContinue(continueKey, keyPrefix, -1));
}
