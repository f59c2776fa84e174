// How many seats a request occupies, and for how long after it finished (kube v1.36's work
// estimator, with its default feature gates: SizeBasedListCostEstimate and WatchList on).
// - list, and watch (a watch that sends initial events costs what the list would): the memory the
//   read holds at once, objects × their average stored size, one seat per 100 kB; a read served
//   from the watch cache holds at most 1 MB (it streams); a single named object costs one seat.
//   Unknown resources (untracked, e.g. aggregated) take the minimum; a stale count the maximum.
// - create/update/patch/delete: one seat while running, then ceil(watchers / 10) seats (at most
//   the maximum) held so that seats × latency = that many × 5 ms, for the watch fan-out.
// - anything else: the minimum.
// The maximum is 100 seats for lists (10 for mutations), lowered per priority level to
// max(1, min(ceil(15% of its nominal seats), nominal / handSize)).
// Counterpart of k8s.io/apiserver/pkg/util/flowcontrol/request (width.go, list_work_estimator.go,
// mutating_work_estimator.go, config.go) and pkg/storage/cacher/delegator.
import { parseFieldSelector } from '../../apimachinery/fields/index.ts';
import type { RequestInfo } from '../../apimachinery/request/context.ts';

export interface WorkEstimate {
  /** Seats held while the request executes. */
  readonly initialSeats: number;
  /** Seats held for `additionalLatencyMs` after it finished (watch fan-out of a write). */
  readonly finalSeats: number;
  readonly additionalLatencyMs: number;
}

/** What the storage last reported for a resource: its object count and average stored size (0: unknown). */
export interface StorageStats { readonly objectCount: number; readonly averageObjectSizeBytes: number }

/** 'not-found': the resource is not tracked; 'stale': its count is older than three minutes. */
export type StatsLookup = StorageStats | 'not-found' | 'stale';

export interface WorkEstimatorConfig {
  readonly minimumSeats: number;
  readonly maximumListSeats: number;
  readonly maximumMutatingSeats: number;
  readonly watchesPerSeat: number;
  readonly eventAdditionalDurationMs: number;
  /** Whether a list at no resourceVersion may be served from the cache (kube: ConsistentListFromCache with etcd's progress notify). */
  readonly consistentReadFromCache: boolean;
}

export const DEFAULT_WORK_ESTIMATOR_CONFIG: WorkEstimatorConfig = {
  minimumSeats: 1, maximumListSeats: 100, maximumMutatingSeats: 10, watchesPerSeat: 10, eventAdditionalDurationMs: 5,
  consistentReadFromCache: true,
};

const BYTES_PER_SEAT = 100_000;
const CACHE_STREAMING_MAX_BYTES = 1_000_000;
const MAX_OBJECT_SIZE = 1_500_000;
const INFINITE_OBJECT_COUNT = 1_000_000_000;

export interface WorkEstimatorDeps {
  /** Stats by kube's group-resource string ("pods", "deployments.apps"). */
  readonly stats: (groupResource: string) => StatsLookup;
  /** Watches that a write of this request would notify. */
  readonly watchCount: (info: RequestInfo) => number;
  /** The level's own maximum (0: none). */
  readonly maxSeats: (priorityLevel: string) => number;
  /** Called with each write's watch count (apiserver_flowcontrol_watch_count_samples). */
  readonly onWatchCount?: (priorityLevel: string, flowSchema: string, count: number) => void;
}

export type WorkEstimator = (info: RequestInfo, query: URLSearchParams, flowSchema: string, priorityLevel: string) => WorkEstimate;

const single = (seats: number): WorkEstimate => ({ initialSeats: seats, finalSeats: 0, additionalLatencyMs: 0 });

/** The larger of the two seat counts: what a request holds while it runs. */
export function maxSeatsOf(e: WorkEstimate): number {
  return Math.max(e.initialSeats, e.finalSeats);
}

export function groupResourceKey(info: Pick<RequestInfo, 'apiGroup' | 'resource'>): string {
  return info.apiGroup === '' ? info.resource : `${info.resource}.${info.apiGroup}`;
}

/** The exact value a field selector requires of `field`, '' when it does not (or does not parse). */
export function exactFieldMatch(fieldSelector: string, field: string): string {
  if (fieldSelector === '') return '';
  try {
    return parseFieldSelector(fieldSelector).requiresExactMatch(field) ?? '';
  } catch {
    return '';
  }
}

/**
 * The object a request names: its path's name, or for a list or watch the name its field selector
 * requires (metadata.name=x, a valid path segment), as kube's RequestInfo carries it.
 */
export function requestedName(info: RequestInfo, query: URLSearchParams): string {
  if (info.name !== '' || (info.verb !== 'list' && info.verb !== 'watch')) return info.name;
  const name = exactFieldMatch(query.get('fieldSelector') ?? '', 'metadata.name');
  return name === '.' || name === '..' || /[/%]/.test(name) ? '' : name;
}

interface ListOptions {
  limit: number; continue: string; resourceVersion: string; resourceVersionMatch: string;
  selectors: boolean; sendInitialEvents: boolean;
}

/** Go's strconv.ParseBool. */
function parseBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/** The list options a query converts to, or undefined when it does not (the request will fail validation). */
function listOptionsOf(q: URLSearchParams): ListOptions | undefined {
  const first = (k: string): string => q.get(k) ?? '';
  for (const k of ['limit', 'timeoutSeconds']) if (first(k) !== '' && !/^[+-]?\d+$/.test(first(k))) return undefined;
  for (const k of ['watch', 'allowWatchBookmarks', 'sendInitialEvents']) if (first(k) !== '' && parseBool(first(k)) === undefined) return undefined;
  return {
    limit: first('limit') === '' ? 0 : Number(first('limit')),
    continue: first('continue'), resourceVersion: first('resourceVersion'), resourceVersionMatch: first('resourceVersionMatch'),
    selectors: first('fieldSelector') !== '' || first('labelSelector') !== '',
    sendInitialEvents: parseBool(first('sendInitialEvents')) === true,
  };
}

/** Whether a list goes to storage rather than the watch cache (the cacher's delegation rules, no snapshots). */
function delegatesToStorage(o: ListOptions, consistentReadFromCache: boolean): boolean {
  switch (o.resourceVersionMatch) {
    case 'Exact': return true;
    case 'NotOlderThan': return false;
    case '':
      if (o.continue !== '') return true;
      if (o.limit > 0 && o.resourceVersion !== '' && o.resourceVersion !== '0') return true;
      if (o.resourceVersion === '') return !consistentReadFromCache;
      return false;
    default: return true;
  }
}

function clampMax(levelMax: number, limit: number): number {
  return levelMax === 0 || levelMax > limit ? limit : levelMax;
}

function listSeats(cfg: WorkEstimatorConfig, deps: WorkEstimatorDeps, info: RequestInfo, q: URLSearchParams, level: string): WorkEstimate {
  const maxSeats = clampMax(deps.maxSeats(level), cfg.maximumListSeats);
  const o = listOptionsOf(q);
  if (o === undefined) return single(maxSeats);
  // A watch without initial events (an explicit resourceVersion, no sendInitialEvents) lists nothing.
  if (info.verb === 'watch' && !o.sendInitialEvents && o.resourceVersion !== '' && o.resourceVersion !== '0') return single(cfg.minimumSeats);
  const fromCache = info.verb === 'watch' || !delegatesToStorage(o, cfg.consistentReadFromCache);
  const found = deps.stats(groupResourceKey(info));
  // Untracked: typically served by another server (aggregation), so cheap for this one.
  if (found === 'not-found') return single(cfg.minimumSeats);
  const stats = found === 'stale' ? { objectCount: INFINITE_OBJECT_COUNT, averageObjectSizeBytes: MAX_OBJECT_SIZE } : found;
  const size = stats.averageObjectSizeBytes <= 0 && stats.objectCount !== 0 ? MAX_OBJECT_SIZE : stats.averageObjectSizeBytes;
  const limited = o.limit > 0 && o.limit < stats.objectCount ? o.limit : stats.objectCount;
  let objects: number;
  if (requestedName(info, q) !== '') objects = 1;
  else if (fromCache) objects = limited;
  else if (o.selectors) objects = Math.max(limited, Math.floor(stats.objectCount / 2));
  else objects = limited;
  let bytes = objects * size;
  if (fromCache) bytes = Math.min(bytes, CACHE_STREAMING_MAX_BYTES);
  const seats = Math.ceil(bytes / BYTES_PER_SEAT);
  return single(Math.min(maxSeats, Math.max(cfg.minimumSeats, seats)));
}

function mutatingSeats(cfg: WorkEstimatorConfig, deps: WorkEstimatorDeps, info: RequestInfo, flowSchema: string, level: string): WorkEstimate {
  const maxSeats = clampMax(deps.maxSeats(level), cfg.maximumMutatingSeats);
  // Creating a service account token writes nothing, so no watcher hears of it.
  if (info.resource === 'serviceaccounts' && info.subresource === 'token') return single(cfg.minimumSeats);
  const watchers = deps.watchCount(info);
  deps.onWatchCount?.(level, flowSchema, watchers);
  if (watchers < cfg.watchesPerSeat) return single(1);
  const seats = Math.ceil(watchers / cfg.watchesPerSeat);
  const work = seats * cfg.eventAdditionalDurationMs;
  const finalSeats = Math.min(seats, maxSeats);
  return { initialSeats: 1, finalSeats, additionalLatencyMs: work / finalSeats };
}

export function newWorkEstimator(deps: WorkEstimatorDeps, cfg: WorkEstimatorConfig = DEFAULT_WORK_ESTIMATOR_CONFIG): WorkEstimator {
  return (info, query, flowSchema, level) => {
    switch (info.verb) {
      case 'list':
      case 'watch':
        return listSeats(cfg, deps, info, query, level);
      case 'create': case 'update': case 'patch': case 'delete':
        return mutatingSeats(cfg, deps, info, flowSchema, level);
      default:
        return single(cfg.minimumSeats);
    }
  };
}
