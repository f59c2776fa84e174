// The aggregator's discovery manager: for every APIService with a service, the group version's
// entry of aggregated discovery as its backend serves it. A backend is asked for `/apis` as
// APIGroupDiscoveryList (v2, else v2beta1) as system:kube-aggregator in system:masters, and when it
// does not answer one, for its legacy `/apis/<group>/<version>` as system:aggregator. Answers are
// cached per service (several APIServices may share one) and fetched again when an APIService
// changes (its availability too), every minute, and, after a failure, with backoff; a failure
// lists the group version with no resources and freshness Stale.
// Counterpart of discoveryManager (k8s.io/kube-aggregator/pkg/apiserver/handler_discovery.go).
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import { Controller, type ControllerOptions } from '../../client/controller.ts';
import type { VersionDiscovery } from '../../endpoints/discovery/types.ts';
import type { APIService } from '../apiservice/apiservice.ts';
import type { BackendCallOptions, BackendResponse, BackendSpec } from '../proxy/backend.ts';
import { convertLegacyResources, parseAggregatedDiscovery } from './convert.ts';
import type { Priority } from './order.ts';

/** How the manager reaches a backend (BackendClients.get). */
export interface DiscoveryFetcher {
  /** Rejects when the backend cannot be resolved or reached. */
  get(spec: BackendSpec, path: string, opts: BackendCallOptions): Promise<BackendResponse>;
}

export interface DiscoveryManagerOptions extends ControllerOptions {
  /** How often every backend is asked again; default a minute. */
  readonly refreshMs?: number;
}

/** The answer a backend gets 5 s for (http.TimeoutHandler). */
const FETCH_TIMEOUT_MS = 5000;
const REFRESH_MS = 60_000;
const AGGREGATED_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const AGGREGATOR_USER: UserInfo = { name: 'system:kube-aggregator', groups: ['system:masters'] };
const LEGACY_USER: UserInfo = { name: 'system:aggregator', groups: [] };

/** A group version of an APIService in the order's terms. */
export interface APIServiceGroupVersion extends Priority {
  readonly group: string;
  readonly version: string;
  /** spec.service is set. */
  readonly remote: boolean;
}

export interface RemoteEntry extends APIServiceGroupVersion {
  readonly discovery: VersionDiscovery;
}

interface RemoteInfo {
  readonly spec: BackendSpec;
  readonly serviceKey: string;
  /** A tick of `clock`: an answer fetched before it is too old for this APIService. */
  lastMarkedDirty: number;
}

interface CachedResult {
  readonly discovery: ReadonlyMap<string, VersionDiscovery>;
  readonly lastUpdated: number;
}

/** ContentTypeIsGVK: the media type's g, v and as parameters name an APIGroupDiscoveryList of apidiscovery.k8s.io v2 or v2beta1. */
export function isAggregatedDiscoveryType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type, ...params] = contentType.split(';').map((s) => s.trim());
  if (type?.toLowerCase() !== 'application/json') return false;
  const p = new Map(params.map((kv) => { const i = kv.indexOf('='); return [kv.slice(0, i).toLowerCase(), kv.slice(i + 1)] as const; }));
  return p.get('g') === 'apidiscovery.k8s.io' && (p.get('v') === 'v2' || p.get('v') === 'v2beta1') && p.get('as') === 'APIGroupDiscoveryList';
}

const gvKey = (group: string, version: string): string => `${group}/${version}`;

function parseJSON(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export class DiscoveryManager extends Controller {
  /** Every APIService, by name (the legacy document and the priorities). */
  readonly #all = new Map<string, APIServiceGroupVersion>();
  readonly #remote = new Map<string, RemoteInfo>();
  readonly #cache = new Map<string, CachedResult>();
  /** What aggregated discovery lists of each remote APIService, once synced. */
  readonly #entries = new Map<string, RemoteEntry>();
  readonly #listeners = new Set<() => void>();
  #clock = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(apiServices: ListWatcher, private readonly fetcher: DiscoveryFetcher, private readonly mopts: DiscoveryManagerOptions = {}) {
    // A backend that fails is retried with backoff and listed Stale; kube logs it at info level only.
    super('discovery-manager', { workers: 2, quiet: () => true, ...mopts });
    this.follow(apiServices, 'apiservices.apiregistration.k8s.io', {
      onAdd: (o: KubeObject) => { this.addAPIService(o as APIService); },
      onUpdate: (_old: KubeObject, o: KubeObject) => { this.addAPIService(o as APIService); },
      onDelete: (o: KubeObject) => { this.removeAPIService(o.metadata.name ?? ''); },
    });
  }

  /**
   * Starts following APIServices; resolves once every remote one known then has been fetched (or
   * found failing, so listed Stale), as kube's apiservice-discovery-controller hook does before
   * the server reports ready.
   */
  override async start(): Promise<void> {
    await super.start();
    await Promise.all([...this.#remote.keys()].map((name) => this.sync(name).catch(() => undefined)));
    this.#timer = setInterval(() => { this.markAllDirty(); }, this.mopts.refreshMs ?? REFRESH_MS);
    this.#timer.unref();
  }

  override stop(): void {
    clearInterval(this.#timer);
    super.stop();
  }

  /** Calls `listener` whenever what the manager lists changes; returns what unregisters it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  /** Every APIService's group version and priorities. */
  apiServices(): APIServiceGroupVersion[] {
    return [...this.#all.values()];
  }

  /** The priorities of the APIService of a group version, if there is one. */
  priority(group: string, version: string): Priority | undefined {
    return this.#all.get(`${version}.${group}`);
  }

  /** The synced remote group versions with their aggregated discovery entries. */
  remoteEntries(): RemoteEntry[] {
    return [...this.#entries.values()];
  }

  private changed(): void {
    for (const l of this.#listeners) l();
  }

  /** AddAPIService: tracks an APIService (the informer calls it); a remote one is fetched again. */
  addAPIService(svc: APIService): void {
    const name = svc.metadata.name ?? '';
    const spec = svc.spec;
    const service = spec.service;
    const remote = service !== undefined && service !== null;
    this.#all.set(name, {
      group: spec.group ?? '', version: spec.version ?? '', remote,
      groupPriorityMinimum: spec.groupPriorityMinimum ?? 0, versionPriority: spec.versionPriority ?? 0,
    });
    if (!remote) {
      // Served right here: its discovery is the local server's.
      if (this.#remote.delete(name)) this.queue.add(name);
      this.changed();
      return;
    }
    this.#remote.set(name, {
      spec: { service, ...(spec.caBundle !== undefined ? { caBundle: spec.caBundle } : {}),
        ...(spec.insecureSkipTLSVerify !== undefined ? { insecureSkipTLSVerify: spec.insecureSkipTLSVerify } : {}) },
      serviceKey: `${service.namespace ?? ''}/${service.name ?? ''}:${service.port ?? 443}`,
      lastMarkedDirty: ++this.#clock,
    });
    this.removeUnusedServices();
    this.changed();
    this.queue.add(name);
  }

  /** RemoveAPIService: forgets an APIService and its entry. */
  removeAPIService(name: string): void {
    this.#all.delete(name);
    if (this.#remote.delete(name)) {
      this.removeUnusedServices();
      this.queue.add(name);
    }
    this.changed();
  }

  private removeUnusedServices(): void {
    const used = new Set([...this.#remote.values()].map((r) => r.serviceKey));
    for (const k of this.#cache.keys()) if (!used.has(k)) this.#cache.delete(k);
  }

  private markAllDirty(): void {
    const now = ++this.#clock;
    for (const [name, info] of this.#remote) {
      info.lastMarkedDirty = now;
      this.queue.add(name);
    }
  }

  /** syncAPIService: the entry of one APIService, Stale (and retried) when its backend fails. */
  protected async sync(name: string): Promise<void> {
    const info = this.#remote.get(name);
    const gv = this.#all.get(name);
    if (info === undefined || gv === undefined) {
      if (this.#entries.delete(name)) this.changed();
      return;
    }
    let discovery: VersionDiscovery;
    let failure: unknown;
    try {
      const cached = await this.fetchFresh(gv.group, gv.version, info);
      discovery = { ...(cached.get(gvKey(gv.group, gv.version)) ?? { version: gv.version }), freshness: 'Current' };
    } catch (err) {
      failure = err;
      discovery = { version: gv.version, freshness: 'Stale' };
    }
    // The APIService may have gone or changed while its backend was asked.
    if (this.#remote.get(name) === info && this.#all.get(name) === gv) {
      const before = this.#entries.get(name);
      this.#entries.set(name, { ...gv, discovery });
      if (before === undefined || JSON.stringify(before) !== JSON.stringify(this.#entries.get(name))) this.changed();
    }
    if (failure !== undefined) throw failure;
  }

  /** fetchFreshDiscoveryForService: the service's group versions, fetched unless fetched since the APIService was marked dirty. */
  private async fetchFresh(group: string, version: string, info: RemoteInfo): Promise<ReadonlyMap<string, VersionDiscovery>> {
    const cached = this.#cache.get(info.serviceKey);
    if (cached !== undefined && cached.lastUpdated > info.lastMarkedDirty) return cached.discovery;
    // Taken before the request, so that a change after it marks the answer too old.
    const now = ++this.#clock;
    const r = await this.fetcher.get(info.spec, '/apis', { user: AGGREGATOR_USER, accept: AGGREGATED_ACCEPT, timeoutMs: FETCH_TIMEOUT_MS });
    const contentType = r.headers['content-type'];
    if (r.status === 200 && isAggregatedDiscoveryType(contentType)) {
      const discovery = parseAggregatedDiscovery(parseJSON(r.body));
      if (discovery === undefined) throw new Error(`${info.serviceKey}: the aggregated discovery document could not be decoded`);
      this.#cache.set(info.serviceKey, { discovery, lastUpdated: now });
      return discovery;
    }
    // No aggregated discovery: the legacy document of this one group version, not cached (the
    // service may serve other group versions).
    const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const legacy = await this.fetcher.get(info.spec, path, { user: LEGACY_USER, accept: 'application/json', timeoutMs: FETCH_TIMEOUT_MS });
    if (legacy.status !== 200) throw new Error(`failed to download legacy discovery for ${path}: ${legacy.body.toString('utf8')}`);
    const resources = convertLegacyResources(parseJSON(legacy.body));
    return new Map([[gvKey(group, version), { version, ...(resources.length > 0 ? { resources } : {}) }]]);
  }
}
