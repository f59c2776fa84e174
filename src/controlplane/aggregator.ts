// kube-apiserver's aggregator, assembled: the backend clients (endpoint routing, with
// kubernetes/default:443 routed to this server itself as kube's loopback resolver does), the
// proxy routes following the APIService informer, and the availability controller, started by
// kube's post-start hooks. The routes are consulted before any built-in route, as kube's
// aggregator is the outermost server of the chain; with no remote APIService, a request pays one
// size check.
// Counterpart of pkg/controlplane/apiserver/aggregator.go (CreateAggregatorServer) and
// kube-aggregator's NewWithDelegate.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { APIAggregator } from '../aggregator/apiserver.ts';
import { BackendClients, type ProxyClientCert } from '../aggregator/proxy/backend.ts';
import { AvailableConditionController } from '../aggregator/status/available-controller.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { ListWatcher } from '../client/cache/list-watch.ts';
import type { InformerSource } from '../client/controller.ts';
import type { RequestState } from '../endpoints/request/state.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { PostStartHook } from '../server/post-start-hooks.ts';
import type { ServiceResolver } from '../webhook/service-resolver.ts';

export interface AggregatorDeps {
  readonly apiServices: ResourceStore<KubeObject>;
  readonly services: ListWatcher;
  readonly endpointSlices: ListWatcher | undefined;
  /** The endpoint resolver over services and EndpointSlices (shared with webhooks). */
  readonly resolver: ServiceResolver;
  /** The port this server is bound to, known once it listens. */
  readonly loopbackPort: () => number;
  readonly proxyClientCert: ProxyClientCert | undefined;
  readonly informers: InformerSource;
  /** Where proxied streams register how to end them at shutdown (HandlerDeps.openWatches). */
  readonly openWatches: Set<() => void>;
}

export interface Aggregator {
  /** The proxy of the remote APIService claiming a path; undefined when none does. */
  handlerFor(path: string): ((req: IncomingMessage, res: ServerResponse, state: RequestState) => Promise<void>) | undefined;
  /** The clients of APIService backends (discovery and OpenAPI merging use them too). */
  readonly clients: BackendClients;
  /** kube's hooks, in its order: apiservice-status-{local,remote}-available-controller, apiservice-registration-controller. */
  readonly hooks: readonly PostStartHook[];
}

/** NewLoopbackServiceResolver: the kubernetes service's 443 is this server. */
function loopbackResolver(delegate: ServiceResolver, port: () => number): ServiceResolver {
  return {
    resolveEndpoint: async (namespace, name, p) => (namespace === 'default' && name === 'kubernetes' && p === 443
      ? new URL(`https://127.0.0.1:${String(port())}`) : await delegate.resolveEndpoint(namespace, name, p)),
  };
}

export function newAggregator(d: AggregatorDeps): Aggregator {
  const cert = d.proxyClientCert;
  const clients = new BackendClients(loopbackResolver(d.resolver, d.loopbackPort), () => cert);
  const routes = new APIAggregator(clients, d.openWatches);
  const available = new AvailableConditionController(
    { apiServices: d.apiServices, services: d.services, endpointSlices: d.endpointSlices }, clients, { informers: d.informers });
  const informer: SharedInformer = d.informers(d.apiServices, 'apiservices.apiregistration.k8s.io');
  const unfollow = routes.follow(informer);
  return {
    clients,
    handlerFor: (path) => routes.handlerFor(path),
    hooks: [
      // One controller writes both the local and the remote conditions.
      { name: 'apiservice-status-local-available-controller', start: () => {} },
      { name: 'apiservice-status-remote-available-controller', start: () => available.start(), stop: () => available.stop() },
      { name: 'apiservice-registration-controller', start: () => informer.start(), stop: unfollow },
    ],
  };
}
