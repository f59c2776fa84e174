// The aggregator's routing: every APIService with spec.service claims the paths of its group
// version (`/apis/<group>/<version>` and below; `/api` and below for `v1.`), which are proxied
// to its backend whoever else serves them, as kube's aggregator is the outermost server of the
// chain; local APIServices (and paths no APIService claims) go on to the built-in routes, the
// apiextensions server, then 404. The routes follow the APIService informer.
// Counterpart of APIAggregator.AddAPIService/RemoveAPIService (kube-aggregator/pkg/apiserver/
// apiserver.go) and APIServiceRegistrationController (apiservice_controller.go).
// Go counterpart: k8s.io/kube-aggregator/pkg/apiserver.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { RequestState } from '../endpoints/request/state.ts';
import type { APIService } from './apiservice/apiservice.ts';
import { noteAPIServiceAvailability } from './metrics.ts';
import type { BackendClients } from './proxy/backend.ts';
import { proxyRequest, type ProxyHandlingInfo } from './proxy/handler.ts';

/** The APIService of kube's legacy group, which claims all of /api. */
const LEGACY_API_SERVICE = 'v1.';

/** The key of the proxied routes a path falls under: `g/v`, `v1.` for /api, undefined for none. */
function routeKey(path: string): string | undefined {
  if (path === '/api' || path.startsWith('/api/')) return LEGACY_API_SERVICE;
  if (!path.startsWith('/apis/')) return undefined;
  const [group, version] = path.slice('/apis/'.length).split('/');
  return group === undefined || group === '' || version === undefined || version === '' ? undefined : `${group}/${version}`;
}

const keyOf = (svc: APIService): string =>
  (svc.metadata.name === LEGACY_API_SERVICE ? LEGACY_API_SERVICE : `${svc.spec.group ?? ''}/${svc.spec.version ?? ''}`);

const isConditionTrue = (svc: APIService, type: string): boolean =>
  svc.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

const noteAvailability = (svc: APIService): void => noteAPIServiceAvailability(svc.metadata.name ?? '', isConditionTrue(svc, 'Available'));

export class APIAggregator {
  /** Non-local APIServices by route key. Empty: requests pass at the cost of one size check. */
  readonly #proxied = new Map<string, ProxyHandlingInfo>();
  readonly #byName = new Map<string, string>();

  /** `openWatches`: where each proxied request registers how to end it at shutdown. */
  constructor(private readonly clients: BackendClients, private readonly openWatches: Set<() => void> = new Set()) {}

  /** Adds, changes or (a local one) removes the routes of an APIService. */
  addAPIService(svc: APIService): void {
    const name = svc.metadata.name ?? '';
    this.removeAPIService(name);
    const service = svc.spec.service;
    if (service === undefined || service === null) return;
    const key = keyOf(svc);
    this.#byName.set(name, key);
    this.#proxied.set(key, {
      name, available: isConditionTrue(svc, 'Available'),
      spec: { service, ...(svc.spec.caBundle !== undefined ? { caBundle: svc.spec.caBundle } : {}),
        ...(svc.spec.insecureSkipTLSVerify !== undefined ? { insecureSkipTLSVerify: svc.spec.insecureSkipTLSVerify } : {}) },
    });
  }

  removeAPIService(name: string): void {
    const key = this.#byName.get(name);
    if (key === undefined) return;
    this.#byName.delete(name);
    this.#proxied.delete(key);
  }

  /** Follows an APIService informer; returns what stops following. */
  follow(informer: SharedInformer): () => void {
    return informer.addEventHandler({
      onAdd: (o: KubeObject) => { this.addAPIService(o as APIService); noteAvailability(o as APIService); },
      onUpdate: (_old: KubeObject, o: KubeObject) => { this.addAPIService(o as APIService); noteAvailability(o as APIService); },
      onDelete: (o: KubeObject) => { this.removeAPIService(o.metadata.name ?? ''); noteAPIServiceAvailability(o.metadata.name ?? '', undefined); },
    });
  }

  /** The routing of a non-local APIService claiming `path`, if any. */
  handlingFor(path: string): ProxyHandlingInfo | undefined {
    if (this.#proxied.size === 0) return undefined;
    const key = routeKey(path);
    return key === undefined ? undefined : this.#proxied.get(key);
  }

  /** The proxy of the non-local APIService claiming `path`; undefined: not ours, go on. */
  handlerFor(path: string): ((req: IncomingMessage, res: ServerResponse, state: RequestState) => Promise<void>) | undefined {
    const info = this.handlingFor(path);
    if (info === undefined) return undefined;
    return (req, res, state) => proxyRequest(this.clients, info, req, res, state, this.openWatches);
  }
}
