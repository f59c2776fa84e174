// The Available condition of every APIService: a local one is always available; a remote one is
// checked step by step as kube does (the Service exists; for a ClusterIP service, it has the
// port and an EndpointSlice with a ready endpoint on that port's name; then a GET of the group
// version's discovery document through the same TLS the proxy uses answers 2xx from at least one
// of five attempts), and the first failing step names the reason. Rechecked when the APIService,
// its Service or its EndpointSlices change, every 30 seconds, and (with backoff) after a failed
// discovery check. The status is written only when it changes.
// Counterpart of kube-aggregator/pkg/controllers/status/remote/remote_available_controller.go and
// status/local/local_available_controller.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import { Controller, type ControllerOptions } from '../../client/controller.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import type { SharedInformer } from '../../client/cache/shared-informer.ts';
import { ItemExponentialFailureRateLimiter } from '../../client/workqueue/rate-limiter.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';
import type { APIService } from '../apiservice/apiservice.ts';
import { BackendClients, backendURL, BackendRequestError, type Backend } from '../proxy/backend.ts';

export interface AvailableCondition {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

interface ServiceView extends KubeObject { spec?: { type?: string; ports?: { name?: string; port?: number }[] } }
interface SliceView extends KubeObject {
  endpoints?: { conditions?: { ready?: boolean | null } }[] | null;
  ports?: { name?: string | null; port?: number | null }[] | null;
}

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
/** Who the discovery check is made as: system:masters, so that it is always authorized. */
const CHECKER: UserInfo = { name: 'system:kube-aggregator', groups: ['system:masters'] };
const ATTEMPTS = 5;
const CHECK_TIMEOUT_MS = 5000;
const RESYNC_MS = 30_000;

/** A failed discovery check: the status is written, and the key retried with backoff. */
class DiscoveryCheckFailed extends Error {}

/** hasAvailableEndpoint: a slice with a ready endpoint and a port of that name. */
function hasAvailableEndpoint(portName: string, slices: readonly SliceView[]): boolean {
  return slices.some((s) => (s.endpoints ?? []).some((e) => e.conditions?.ready === undefined || e.conditions.ready === null || e.conditions.ready)
    && (s.ports ?? []).some((p) => (p.name ?? '') === portName && typeof p.port === 'number'));
}

/** The discovery path of an APIService (`/api/v1` for the legacy one). */
const discoveryPath = (svc: APIService): string =>
  (svc.metadata.name === 'v1.' ? `/api/${svc.spec.version ?? ''}` : `/apis/${svc.spec.group ?? ''}/${svc.spec.version ?? ''}`);

/** SetAPIServiceCondition: the transition time moves only when the status does. */
export function withAvailableCondition(svc: APIService, c: AvailableCondition, now: string): APIService['status'] {
  const conditions = [...(svc.status?.conditions ?? [])];
  const i = conditions.findIndex((x) => x.type === 'Available');
  const prev = i === -1 ? undefined : conditions[i];
  const next = { type: 'Available', status: c.status, lastTransitionTime: prev !== undefined && prev.status === c.status ? prev.lastTransitionTime ?? now : now,
    reason: c.reason, message: c.message };
  if (i === -1) conditions.push(next); else conditions[i] = next;
  return { ...svc.status, conditions };
}

const sameStatus = (a: APIService['status'], b: APIService['status']): boolean => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

export interface AvailableControllerSources {
  readonly apiServices: ResourceStore<KubeObject>;
  readonly services: ListWatcher;
  /** Absent when discovery.k8s.io/v1 is not served. */
  readonly endpointSlices: ListWatcher | undefined;
}

export class AvailableConditionController extends Controller {
  private readonly apiServiceInformer: SharedInformer;
  private readonly serviceInformer: SharedInformer;
  private readonly sliceInformer: SharedInformer | undefined;

  constructor(private readonly src: AvailableControllerSources, private readonly clients: BackendClients, opts: ControllerOptions = {}) {
    super('AvailableConditionController', {
      rateLimiter: new ItemExponentialFailureRateLimiter(5, 30_000), quiet: (e) => e instanceof DiscoveryCheckFailed, ...opts,
    });
    const enqueue = (o: KubeObject): void => { this.queue.add(o.metadata.name ?? ''); };
    this.apiServiceInformer = this.follow(src.apiServices, 'apiservices.apiregistration.k8s.io',
      { onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue }, { resyncMs: RESYNC_MS });
    const forService = (ns: string, name: string): void => {
      for (const o of this.apiServiceInformer.list() as APIService[]) {
        if (o.spec.service?.namespace === ns && o.spec.service.name === name) this.queue.add(o.metadata.name ?? '');
      }
    };
    const onService = (o: KubeObject): void => forService(o.metadata.namespace ?? '', o.metadata.name ?? '');
    this.serviceInformer = this.follow(src.services, 'services', { onAdd: onService, onUpdate: (_o, n) => onService(n), onDelete: onService });
    const onSlice = (o: KubeObject): void => {
      const svc = o.metadata.labels?.[SERVICE_NAME_LABEL] ?? '';
      if (svc !== '') forService(o.metadata.namespace ?? '', svc);
    };
    this.sliceInformer = src.endpointSlices === undefined ? undefined
      : this.follow(src.endpointSlices, 'endpointslices.discovery.k8s.io', { onAdd: onSlice, onUpdate: (_o, n) => onSlice(n), onDelete: onSlice });
  }

  protected async sync(name: string): Promise<void> {
    const svc = this.apiServiceInformer.get('', name) as APIService | undefined;
    if (svc === undefined) return;
    const cond = await this.check(svc);
    await this.write(svc, cond);
    if (cond.status === 'False' && cond.reason === 'FailedDiscoveryCheck') throw new DiscoveryCheckFailed(`${name} failed with: ${cond.message}`);
  }

  /** The Available condition `svc` has now. */
  async check(svc: APIService): Promise<AvailableCondition> {
    const ref = svc.spec.service;
    if (ref === undefined || ref === null) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
    const ns = ref.namespace ?? '';
    const name = ref.name ?? '';
    const service = this.serviceInformer.get(ns, name) as ServiceView | undefined;
    if (service === undefined) return { status: 'False', reason: 'ServiceNotFound', message: `service/${name} in ${JSON.stringify(ns)} is not present` };
    if ((service.spec?.type ?? 'ClusterIP') === 'ClusterIP') {
      const port = ref.port ?? 443;
      const sp = (service.spec?.ports ?? []).find((p) => p.port === port);
      if (sp === undefined) {
        return { status: 'False', reason: 'ServicePortError', message: `service/${name} in ${JSON.stringify(ns)} is not listening on port ${String(port)}` };
      }
      const slices = (this.sliceInformer?.byNamespace(ns) ?? []).filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === name) as SliceView[];
      if (slices.length === 0) {
        return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpointslices for service/${name} in ${JSON.stringify(ns)}` };
      }
      const portName = sp.name ?? '';
      if (!hasAvailableEndpoint(portName, slices)) {
        return { status: 'False', reason: 'MissingEndpoints',
          message: `endpointslices for service/${name} in ${JSON.stringify(ns)} have no addresses with port name ${JSON.stringify(portName)}` };
      }
    }
    // transport.New failing is retried without a status change, as kube returns its error.
    this.clients.agentFor(svc.spec);
    const results = await Promise.all(Array.from({ length: ATTEMPTS }, () => this.attempt(svc)));
    const failure = results.every((r) => r !== undefined) ? results[ATTEMPTS - 1] : undefined;
    if (failure !== undefined) return { status: 'False', reason: 'FailedDiscoveryCheck', message: failure };
    return { status: 'True', reason: 'Passed', message: 'all checks passed' };
  }

  /** One discovery GET; the failure's message, or undefined on success. */
  private async attempt(svc: APIService): Promise<string | undefined> {
    let backend: Backend;
    try {
      backend = await this.clients.backend(svc.spec);
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
    const path = discoveryPath(svc);
    const url = backendURL(backend, path);
    try {
      const r = await this.clients.getFrom(backend, path, { user: CHECKER, timeoutMs: CHECK_TIMEOUT_MS });
      // kube wraps this one too: its check runs in the same goroutine as the GET.
      return r.status >= 200 && r.status < 300 ? undefined : `failing or missing response from ${url}: bad status from ${url}: ${String(r.status)}`;
    } catch (err) {
      const text = err instanceof BackendRequestError && err.timedOut
        ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
        : err instanceof Error ? err.message : String(err);
      return `failing or missing response from ${url}: Get ${JSON.stringify(url)}: ${text}`;
    }
  }

  /** Writes the condition when it changes the status (no no-op writes on every resync). */
  private async write(svc: APIService, cond: AvailableCondition): Promise<void> {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (sameStatus(svc.status, withAvailableCondition(svc, cond, now))) return;
    await this.src.apiServices.updateUnchecked(systemContext(''), svc.metadata.name ?? '', (cur) => {
      const current = cur as APIService;
      return { ...current, status: withAvailableCondition(current, cond, now) } as KubeObject;
    }, { dryRun: false });
  }
}
