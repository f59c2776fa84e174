// The aggregator's OpenAPI controllers: for every APIService with a service, its backend's
// /openapi/v2 (cut down to the APIService's group version, merged after this server's spec in
// APIService priority order) and its /openapi/v3 index (whose documents join this server's
// index and are proxied to the backend when asked for). Fetched as system:aggregator when the
// APIService changes and again a minute after each success, and only while it is Available (kube
// downloads through the proxy, which answers 503 until then); a failure keeps the last good spec
// and is retried with backoff. A backend without /openapi/v2 (404) adds nothing.
// Counterpart of k8s.io/kube-aggregator/pkg/controllers/openapi (aggregator.go, downloader.go,
// controller.go) and k8s.io/kube-aggregator/pkg/controllers/openapiv3 (the same files).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import { Controller, type ControllerOptions } from '../../client/controller.ts';
import type { SyncResult } from '../../client/workqueue/worker.ts';
import type { APIService } from '../apiservice/apiservice.ts';
import type { DiscoveryFetcher } from '../discovery/manager.ts';
import type { BackendSpec } from '../proxy/backend.ts';
import { filterSpecByPaths, type JsonObject } from './merge-v2.ts';

const AGGREGATOR_USER: UserInfo = { name: 'system:aggregator', groups: [] };
/** specDownloadTimeout. */
const DOWNLOAD_TIMEOUT_MS = 60_000;
const RESYNC_MS = 60_000;

interface RemoteSpec {
  readonly name: string;
  readonly backend: BackendSpec;
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  /** Its Available condition is True. */
  readonly available: boolean;
  /** The last good v2 spec, filtered to the group version. */
  v2?: JsonObject;
  /** The document names of the backend's /openapi/v3 and their URLs. */
  v3?: ReadonlyMap<string, string>;
}

/** sortByPriority: higher groupPriorityMinimum, then higher versionPriority, then name. */
function byPriority(a: RemoteSpec, b: RemoteSpec): number {
  if (a.groupPriorityMinimum !== b.groupPriorityMinimum) return b.groupPriorityMinimum - a.groupPriorityMinimum;
  if (a.versionPriority !== b.versionPriority) return b.versionPriority - a.versionPriority;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function parseJSON(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The document a name of the merged v3 index is proxied to. */
export interface RemoteV3Document {
  readonly backend: BackendSpec;
}

export class OpenAPIAggregationController extends Controller {
  readonly #specs = new Map<string, RemoteSpec>();
  readonly #listeners = new Set<() => void>();

  constructor(apiServices: ListWatcher, private readonly fetcher: DiscoveryFetcher, private readonly resyncMs = RESYNC_MS, opts: ControllerOptions = {}) {
    super('openapi-aggregation-controller', { quiet: () => true, ...opts });
    this.follow(apiServices, 'apiservices.apiregistration.k8s.io', {
      onAdd: (o: KubeObject) => { this.addAPIService(o as APIService); },
      onUpdate: (_old: KubeObject, o: KubeObject) => { this.addAPIService(o as APIService); },
      onDelete: (o: KubeObject) => { this.removeAPIService(o.metadata.name ?? ''); },
    });
  }

  /** Calls `listener` whenever a merged document may have changed; returns what unregisters it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  private changed(): void {
    for (const l of this.#listeners) l();
  }

  addAPIService(svc: APIService): void {
    const name = svc.metadata.name ?? '';
    const service = svc.spec.service;
    if (service === undefined || service === null) { this.removeAPIService(name); return; }
    const prev = this.#specs.get(name);
    const next: RemoteSpec = {
      name, group: svc.spec.group ?? '', version: svc.spec.version ?? '',
      groupPriorityMinimum: svc.spec.groupPriorityMinimum ?? 0, versionPriority: svc.spec.versionPriority ?? 0,
      available: svc.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') === true,
      backend: { service, ...(svc.spec.caBundle !== undefined ? { caBundle: svc.spec.caBundle } : {}),
        ...(svc.spec.insecureSkipTLSVerify !== undefined ? { insecureSkipTLSVerify: svc.spec.insecureSkipTLSVerify } : {}) },
    };
    // Same group version: the specs fetched so far stand until the next fetch.
    if (prev !== undefined && prev.group === next.group && prev.version === next.version) {
      if (prev.v2 !== undefined) next.v2 = prev.v2;
      if (prev.v3 !== undefined) next.v3 = prev.v3;
    }
    this.#specs.set(name, next);
    this.queue.add(name);
  }

  removeAPIService(name: string): void {
    if (this.#specs.delete(name)) this.changed();
  }

  /** The backends' v2 specs, each cut to its group version, in the order they are merged. */
  v2Specs(): JsonObject[] {
    return [...this.#specs.values()].sort(byPriority).flatMap((s) => (s.v2 === undefined ? [] : [s.v2]));
  }

  /** The v3 documents the backends list: name → serverRelativeURL. */
  v3Paths(): Map<string, string> {
    const out = new Map<string, string>();
    for (const s of [...this.#specs.values()].sort(byPriority)) for (const [k, v] of s.v3 ?? []) if (!out.has(k)) out.set(k, v);
    return out;
  }

  /** Who serves a v3 document of the merged index, when a backend does. */
  v3Owner(name: string): RemoteV3Document | undefined {
    for (const s of [...this.#specs.values()].sort(byPriority)) if (s.v3?.has(name) === true) return { backend: s.backend };
    return undefined;
  }

  protected async sync(name: string): Promise<SyncResult> {
    const s = this.#specs.get(name);
    if (s === undefined) return;
    // Retried with backoff, and at once when the APIService changes (becomes Available).
    if (!s.available) throw new Error(`failed to download ${name}: service unavailable`);
    const [v2, v3] = await Promise.allSettled([this.downloadV2(s), this.downloadV3(s)]);
    if (this.#specs.get(name) !== s) return;
    let changed = false;
    if (v2.status === 'fulfilled' && JSON.stringify(v2.value) !== JSON.stringify(s.v2)) {
      if (v2.value === undefined) delete s.v2; else s.v2 = v2.value;
      changed = true;
    }
    if (v3.status === 'fulfilled' && JSON.stringify([...v3.value ?? []]) !== JSON.stringify([...s.v3 ?? []])) {
      if (v3.value === undefined) delete s.v3; else s.v3 = v3.value;
      changed = true;
    }
    if (changed) this.changed();
    if (v2.status === 'rejected') throw v2.reason;
    if (v3.status === 'rejected') throw v3.reason;
    return { requeueAfterMs: this.resyncMs };
  }

  /** The backend's v2 spec cut to `/apis/<group>/<version>/`; undefined when it serves none (404). */
  private async downloadV2(s: RemoteSpec): Promise<JsonObject | undefined> {
    const r = await this.fetcher.get(s.backend, '/openapi/v2', { user: AGGREGATOR_USER, accept: 'application/json', timeoutMs: DOWNLOAD_TIMEOUT_MS });
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new Error(`failed to retrieve openAPI spec, http error: ${r.status}`);
    const spec = parseJSON(r.body);
    if (!isObject(spec)) throw new Error('failed to decode the openAPI spec');
    return filterSpecByPaths(spec, [`/apis/${s.group}/${s.version}/`]);
  }

  /** The names and URLs of the backend's /openapi/v3 index; undefined when it serves none (404). */
  private async downloadV3(s: RemoteSpec): Promise<Map<string, string> | undefined> {
    const r = await this.fetcher.get(s.backend, '/openapi/v3', { user: AGGREGATOR_USER, timeoutMs: DOWNLOAD_TIMEOUT_MS });
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new Error('Error, could not get list of group versions for APIService');
    const index = parseJSON(r.body);
    const paths = isObject(index) && isObject(index['paths']) ? index['paths'] : {};
    const out = new Map<string, string>();
    for (const [k, v] of Object.entries(paths)) {
      const url = isObject(v) && typeof v['serverRelativeURL'] === 'string' ? v['serverRelativeURL'] : '';
      out.set(k, url);
    }
    return out;
  }
}
