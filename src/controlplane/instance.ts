// Assembles kube-apiserver in one place: authorization, the REST storage of every group (typed
// handles, storage-providers.ts), admission, the server chain (built-in routes, then the
// apiextensions server, then 404), the handler chain, health checks, and the post-start hooks
// (hooks.ts) that start the informers and controllers and stop them in reverse order.
// Counterpart of pkg/controlplane/instance.go and cmd/kube-apiserver/app/server.go (CreateServerChain).
import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import { decodeBody } from '../apimachinery/fieldvalidation/index.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { Scheme } from '../apimachinery/runtime/scheme.ts';
import { CRDController, CustomResourceServer, type ServedStore } from '../apiextensions/index.ts';
import { newReloadableAuthorizationChain, type AuthorizationMode } from '../authz/modes.ts';
import { RBACCache } from '../authz/rbac/cache.ts';
import { RBACAuthorizer } from '../authz/rbac/rbac.ts';
import type { Authorizer, RuleResolver } from '../authz/authorizer.ts';
import type { ServiceAccountTokenGetter } from '../authn/serviceaccount/index.ts';
import type { SecretGetter } from '../authn/bootstrap-token.ts';
import { resourceName, SharedInformerFactory } from '../client/cache/informer-factory.ts';
import type { ListWatcher } from '../client/cache/list-watch.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { HandlerDeps, ResourceEndpoint } from '../endpoints/handlers/scope.ts';
import { APIInstaller } from '../endpoints/installer.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import { withAuditInit } from '../server/filters/audit-init.ts';
import { withAudit } from '../server/filters/audit.ts';
import { withFailedAuthenticationAudit } from '../server/filters/failed-authentication-audit.ts';
import type { Auditor } from '../audit/auditor.ts';
import { withAuthentication, type RequestAuthenticator } from '../server/filters/authentication.ts';
import { withAuthorization } from '../server/filters/authorization.ts';
import { withCacheControl } from '../server/filters/cache-control.ts';
import { withCORS } from '../server/filters/cors.ts';
import { withProbabilisticGoaway } from '../server/filters/goaway.ts';
import { withHSTS } from '../server/filters/hsts.ts';
import { withPriorityAndFairness } from '../server/filters/priority-and-fairness.ts';
import { withRetryAfter } from '../server/filters/retry-after.ts';
import type { Filter } from '../server/filters/types.ts';
import { withHTTPLog } from '../server/filters/httplog.ts';
import { debugHandlers, newVerbosity, type Verbosity } from '../server/debug/profiling.ts';
import { withImpersonation } from '../server/filters/impersonation.ts';
import { withMaxInFlight } from '../server/filters/max-in-flight.ts';
import { withRequestMetrics } from '../server/filters/metrics.ts';
import { metricsHandlers } from '../server/metrics-handler.ts';
import { withPanicRecovery } from '../server/filters/panic-recovery.ts';
import { withRequestInfo } from '../server/filters/request-info.ts';
import { withTimeout } from '../server/filters/timeout.ts';
import { GenericAPIServer, type NonResourceHandler } from '../server/generic-server.ts';
import type { HealthCheck } from '../server/healthz.ts';
import { PostStartHooks } from '../server/post-start-hooks.ts';
import { StorageVersionMigrator } from './storage-version-migrator.ts';
import type { Transformer } from '../storage/value/transformer.ts';
import { parseGroupResource, type EncryptionTransformers } from '../storage/value/config.ts';
import { kmsHealthChecks } from './encryption-healthz.ts';
import type { Backend } from '../storage/backend.ts';
import { newAdmissionChain, type AdmissionOptions } from './admission.ts';
import { celAuthorizer, webhookAdmissionDeps } from './admission-webhooks.ts';
import { policyAdmissionInformers } from './admission-policies.ts';
import { typeCheckDeps, ValidatingAdmissionPolicyStatusController } from './vap-status-controller.ts';
import { discoveryRESTMapper } from './rest-mapper.ts';
import { storeNodeGraph } from './node-graph.ts';
import { NodeAuthorizer } from '../authz/node/node-authorizer.ts';
import { V1_36_FEATURES } from './rbac-bootstrap/features.ts';
import { nodeRules } from './rbac-bootstrap/cluster-roles.ts';
import type { BootstrapOptions } from './bootstrap.ts';
import { coreDefinitions, type CoreOptions } from './core-definitions.ts';
import { CRDRegistrationController } from './crd-registration-controller.ts';
import { AggregatorDiscovery, DiscoveryManager } from '../aggregator/discovery/index.ts';
import { OpenAPIAggregationController } from '../aggregator/openapi/controller.ts';
import { servedPriority } from './local-apiservices.ts';
import { GarbageCollector } from './garbage-collector.ts';
import { admittedDeletes, admittedUpdates, GARBAGE_COLLECTOR_USER, NAMESPACE_CONTROLLER_USER } from './controller-admission.ts';
import { builtInGroups } from './groups.ts';
import { controlPlaneHooks, informerSync } from './hooks.ts';
import { NamespaceController } from './namespace-controller.ts';
import { NamespaceDefaultsController } from './namespace-defaults-controller.ts';
import { ObjectCache } from './object-cache.ts';
import { openAPIHandlers } from './openapi.ts';
import { PVProtectionController } from './pv-protection-controller.ts';
import { PVCProtectionController } from './pvc-protection-controller.ts';
import { VACProtectionController } from './vac-protection-controller.ts';
import { ClusterRoleAggregationController, RBACBootstrapController } from './rbac-bootstrap/index.ts';
import { ResourceQuotaController } from './resource-quota-controller.ts';
import { resolveRuntimeConfig } from './runtime-config.ts';
import { newFlowControl } from './flowcontrol.ts';
import { LeaseEndpointReconciler } from './endpoint-reconciler.ts';
import { hostPort, IdentityLeaseController } from './identity-lease.ts';
import { buildStorage, type RBACStorage, type ServerStorage } from './storage-providers.ts';
import { WatchCacheFactory, type WatchCacheConfig } from '../storage/cacher/factory.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { StorageMediaType } from '../storage/value-codec.ts';
import { ClientManager } from '../webhook/index.ts';
import { newEndpointServiceResolver } from './endpoint-service-resolver.ts';
import { ClusterAuthenticationTrustController, type ClusterAuthenticationInfo } from './cluster-authentication-trust.ts';
import type { ProxyClientCert } from '../aggregator/proxy/backend.ts';
import { newAggregator } from './aggregator.ts';
import { JWKS_PATH, issuerDiscoverable, issuerDiscoveryHandlers } from './service-account-issuer-discovery.ts';

export interface ControlPlaneConfig extends Omit<BootstrapOptions, 'securePort'>, CoreOptions {
  readonly backend: Backend;
  readonly etcdPrefix: string;
  /** --storage-media-type for built-in kinds (custom resources are always JSON). Default protobuf. */
  readonly storageMediaType?: StorageMediaType;
  readonly authenticator: RequestAuthenticator;
  readonly anonymousAllowed: (path: string) => boolean;
  /** --authorization-mode, in order (kube puts the system:masters authorizer before them). */
  readonly authorizationModes: readonly AuthorizationMode[];
  /** The authorizers of the Webhook modes, in order. */
  readonly webhookAuthorizers?: readonly (Authorizer & RuleResolver)[];
  /** The ABAC mode's authorizer (--authorization-policy-file). */
  readonly abacAuthorizer?: Authorizer & RuleResolver;
  readonly maxRequestsInFlight: number;
  readonly maxMutatingRequestsInFlight: number;
  readonly requestTimeoutSeconds: number;
  readonly minRequestTimeoutSeconds: number;
  /** --runtime-config. */
  readonly runtimeConfig: Readonly<Record<string, string>>;
  /** --enable-admission-plugins / --disable-admission-plugins / --admission-control-config-file. */
  readonly admission: AdmissionOptions;
  /** PEM of the cluster CA, published in every namespace as kube-root-ca.crt. */
  readonly caCert: string;
  /**
   * --shutdown-delay-duration: how long stop() keeps serving with /readyz failing before the
   * graceful termination starts (default 0).
   */
  readonly shutdownDelayMs?: number;
  /** --service-account-jwks-uri; default https://<advertise address>:<secure port>/openid/v1/jwks. */
  readonly serviceAccountJWKSURI?: string;
  /** --client-ca-file and --requestheader-*, published in kube-system/extension-apiserver-authentication. */
  readonly clusterAuthenticationInfo?: ClusterAuthenticationInfo;
  /** --proxy-client-cert-file/--proxy-client-key-file: what the aggregator presents to APIService backends. */
  readonly proxyClientCert?: ProxyClientCert;
  /** --shutdown-send-retry-after and --shutdown-watch-termination-grace-period. */
  readonly shutdownSendRetryAfter?: boolean;
  readonly shutdownWatchTerminationGracePeriodMs?: number;
  /** --enable-priority-and-fairness (default true): APF instead of the max-in-flight limit. */
  readonly enablePriorityAndFairness?: boolean;
  /** --cors-allowed-origins and --strict-transport-security-directives. */
  readonly corsAllowedOrigins?: readonly string[];
  readonly hstsDirectives?: readonly string[];
  /** --goaway-chance, when HTTP/2 is served (0: off). */
  readonly goawayChance?: number;
  /** Where the -v 3 request log goes; undefined: no request log. */
  readonly httpLog?: (line: string) => void;
  /** -v, settable through /debug/flags/v: the request log is written from 3 on; undefined: always. */
  readonly verbosity?: Verbosity;
  /** --profiling (default false here; kapi serve passes kube's default true): /debug/pprof/* and /debug/flags/v. */
  readonly profiling?: boolean;
  /** The audit policy and backends (--audit-*); undefined: no auditing. */
  readonly auditor?: Auditor;
  /** --watch-cache and --watch-cache-sizes; default: every resource cached but events. */
  readonly watchCache?: WatchCacheConfig;
  /** --encryption-provider-config, loaded: the transformers of the resources it covers. */
  readonly encryption?: EncryptionTransformers;
}

export interface ControlPlane {
  readonly server: GenericAPIServer;
  /**
   * Creates the system namespaces and the kubernetes service (pointing at `securePort`, the port
   * actually bound), starts controllers; readyz turns ok.
   */
  start(securePort: number): Promise<void>;
  /** Stops controllers, ends watches, finishes in-flight requests. Does not close the backend. */
  stop(): Promise<void>;
  /** Where service account token authentication looks up service accounts and bound objects. */
  readonly tokenGetter: ServiceAccountTokenGetter;
  /** Where bootstrap token authentication reads Secrets. */
  readonly secretGetter: SecretGetter;
  /** Swaps the authorizer chain (--authorization-config reloaded); throws kube's error for a mode not enabled at start-up. */
  replaceAuthorizers(modes: readonly AuthorizationMode[], webhooks: readonly (Authorizer & RuleResolver)[]): void;
}

/** The service account issuer's discovery documents, when the issuer is an https URL (kube's rule). */
function issuerDiscovery(cfg: ControlPlaneConfig, port: () => number): [string, NonResourceHandler][] {
  const issuer = cfg.serviceAccountTokenIssuer;
  if (issuer === undefined || !issuerDiscoverable(issuer.issuer)) return [];
  const host = cfg.advertiseAddress ?? 'localhost';
  return issuerDiscoveryHandlers({
    issuer: issuer.issuer, keys: () => issuer.publicKeys(),
    jwksURI: () => cfg.serviceAccountJWKSURI ?? `https://${host.includes(':') ? `[${host}]` : host}:${port()}${JWKS_PATH}`,
  });
}

export async function newControlPlane(cfg: ControlPlaneConfig): Promise<ControlPlane> {
  const scheme = new Scheme();
  scheme.addUnversionedKinds({ group: '', version: 'v1' }, ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

  // Authorization first: the rbac group's escalation checks and the RBAC authorizer read the
  // RBAC stores, built below (so read through `storage` once it is there).
  const late: { storage?: ServerStorage } = {};
  const storage = (): ServerStorage => { if (late.storage === undefined) throw new Error('storage not built yet'); return late.storage; };
  const rbacStore = (pick: (r: RBACStorage) => ResourceStore<KubeObject>): ListWatcher => ({
    list: (ctx, opts) => pick(storage().rbac).list(ctx, opts), watch: (ctx, opts) => pick(storage().rbac).watch(ctx, opts),
  });
  const rbacSources = {
    roles: rbacStore((r) => r.roles), roleBindings: rbacStore((r) => r.roleBindings),
    clusterRoles: rbacStore((r) => r.clusterRoles), clusterRoleBindings: rbacStore((r) => r.clusterRoleBindings),
  };
  const informers = new SharedInformerFactory();
  const informerFor = (lw: ListWatcher, name: string): SharedInformer => informers.informerFor(lw, name);
  const rbacCache = cfg.authorizationModes.includes('RBAC') ? new RBACCache(rbacSources, informerFor) : undefined;
  // The Node authorizer's graph reads the pods bound to a node from an informer made once storage exists.
  const nodeGraphPods: { cache?: ObjectCache } = {};
  const nodeAuthorizer = cfg.authorizationModes.includes('Node') ? new NodeAuthorizer(storeNodeGraph({
    pods: async () => await nodeGraphPods.cache?.all() ?? [], storeFor: (r) => late.storage?.byName.get(r),
  }), nodeRules(V1_36_FEATURES), {
    getServiceAccounts: V1_36_FEATURES.KubeletServiceAccountTokenForCredentialProviders || V1_36_FEATURES.PodCertificateRequest,
  }) : undefined;
  const authorization = newReloadableAuthorizationChain(cfg.authorizationModes, {
    rbac: rbacCache === undefined ? undefined : new RBACAuthorizer(rbacCache), node: nodeAuthorizer, abac: cfg.abacAuthorizer,
  }, cfg.webhookAuthorizers);

  // The REST storage of every group (kube's RESTStorageProviders), with typed handles.
  const groups: APIGroupDefinition[] = [await coreDefinitions(cfg, cfg.backend, cfg.etcdPrefix, () => late.storage?.optional.ipAddresses), ...builtInGroups({
    eventTTLSeconds: cfg.eventTTLSeconds,
    authenticate: async (token, audiences) => {
      if (cfg.authenticator.authenticateToken !== undefined) return await cfg.authenticator.authenticateToken(token, audiences);
      const user = await cfg.authenticator.authenticate({ authorization: `Bearer ${token}` }, audiences);
      return user === undefined ? undefined : { user };
    },
    authorization, rbacReaders: rbacSources,
    // a live read, as kube's strategies GET the namespace through their client
    namespaceLabels: async (name) => {
      const ns = await storage().core.namespaces.get(systemContext(), name, {});
      return ns.metadata.labels ?? {};
    },
  })];
  const enabled = resolveRuntimeConfig(cfg.runtimeConfig,
    groups.flatMap((g) => g.versions.map((v) => ({ group: g.group, version: v.version }))));
  const transformerFor = cfg.encryption === undefined ? undefined
    : (gr: string): Transformer | undefined => cfg.encryption?.forResource(parseGroupResource(gr));
  const watchCaches = new WatchCacheFactory({ ...(cfg.watchCache ?? { enabled: true }), ...(transformerFor !== undefined ? { transformerFor } : {}) });
  const built = late.storage = buildStorage(scheme, cfg.backend, cfg.etcdPrefix, groups, enabled, watchCaches.storageFor, cfg.storageMediaType);
  const { core, optional } = built;

  // Admission reads namespaces on every request, quotas on every create and limit ranges on every pod create: from informers.
  const lister = (store: ResourceStore<KubeObject>, name: string): ObjectCache => new ObjectCache(store, informerFor(store, name));
  const namespaceCache = lister(core.namespaces, 'namespaces');
  // The clients of admission and conversion webhooks. A service reference resolves to a ready
  // endpoint of the service's EndpointSlices (kapi has no service proxy); the informers are
  // made at the first such call.
  const serviceResolver = newEndpointServiceResolver(() => ({
    services: lister(core.services, 'services'),
    endpointSlices: optional.endpointSlices === undefined ? undefined : lister(optional.endpointSlices, 'endpointslices.discovery.k8s.io'),
  }));
  const webhookClients = new ClientManager(serviceResolver);
  /** Every open watch and proxied stream, ended at shutdown. */
  const openWatches = new Set<() => void>();
  // kube-aggregator: APIServices with a service are proxied to it, ahead of every built-in route.
  // Everything that calls APIService backends (proxy, availability, discovery, OpenAPI) shares
  // `backendClients`: the proxy client certificate and the loopback route of kubernetes.default.
  const aggregator = newAggregator({
    apiServices: built.apiServices, services: core.services, endpointSlices: optional.endpointSlices, resolver: serviceResolver,
    loopbackPort: () => boundPort, proxyClientCert: cfg.proxyClientCert, informers: informerFor, openWatches,
  });
  const backendClients = aggregator.clients;

  if (nodeAuthorizer !== undefined) nodeGraphPods.cache = lister(core.pods, 'pods');
  const policyDeps = policyAdmissionInformers(built.byName, informerFor);
  const vapStore = built.byName.get('validatingadmissionpolicies.admissionregistration.k8s.io');
  const svmStore = built.byName.get('storageversionmigrations.storagemigration.k8s.io');
  const admission = newAdmissionChain(cfg.admission, {
    namespaces: (name) => namespaceCache.get('', name), serviceAccounts: core.serviceAccounts,
    priorityClasses: optional.priorityClasses, limitRanges: lister(core.limitRanges, 'limitranges'),
    storageClasses: optional.storageClasses, ingressClasses: optional.ingressClasses,
    resourceQuotaLister: lister(core.resourceQuotas, 'resourcequotas'), resourceQuotas: core.resourceQuotas,
    // Read from storage, not a cache: only a namespace's enforce level tightening lists pods, and
    // a pod created a moment before must be among them.
    pods: { list: async (ns) => (await core.pods.list(systemContext(ns), {})).items },
    webhooks: webhookAdmissionDeps(built.byName, informerFor, webhookClients, authorization.authorizer),
    policies: policyDeps === undefined ? undefined : {
      ...policyDeps, authorizer: celAuthorizer(authorization.authorizer),
      storeFor: (r) => built.byName.get(r) ?? crServer.servedStores().get(r)?.store,
      restMapper: discoveryRESTMapper(() => [...installer.discovery, ...crServer.discovery()]),
      convert: (obj, group, version) => scheme.convertToVersion(obj, { group, version }),
    },
    authorizer: authorization.authorizer, storeFor: (r) => built.byName.get(r),
    // Read at request time: the installer and the custom resource server are built below.
    restMapper: discoveryRESTMapper(() => [...installer.discovery, ...crServer.discovery()]),
  });
  const deps: HandlerDeps = {
    scheme, admission, decodeBody, minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds, openWatches,
  };
  const installer = new APIInstaller(deps, built.installs.filter((i) => i.versions.length > 0));

  // The apiextensions server: custom resources, served after every built-in route.
  const crServer = new CustomResourceServer({
    crds: built.crds, backend: cfg.backend, etcdPrefix: cfg.etcdPrefix, admission,
    minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds, openWatches: deps.openWatches, informers: informerFor, webhookClients,
    storageFor: watchCaches.ownedStorageFor,
    ...(transformerFor !== undefined ? { transformerFor } : {}),
  });
  const customResourceStores = (): ResourceStore<KubeObject>[] => [...crServer.servedStores().values()].map((s) => s.store);
  const controller = { informers: informerFor };
  // The built-in resource at its group's preferred version, as kube's controllers find it by discovery.
  const preferredEndpoint = (group: string, resource: string, subresource = ''): ResourceEndpoint | undefined => {
    const v = installer.discovery.find((g) => g.name === group)?.versions.find((gv) => gv.resources.some((r) => r.name === resource));
    return v === undefined ? undefined : installer.endpoint(group, v.version, resource, subresource);
  };
  const controllers = {
    namespace: new NamespaceController(core.namespaces, core.namespaceFinalize,
      () => [...built.namespaced, ...customResourceStores().filter((s) => s.definition.namespaced)], controller,
      admittedDeletes(NAMESPACE_CONTROLLER_USER, deps, preferredEndpoint), admittedUpdates(NAMESPACE_CONTROLLER_USER, deps, preferredEndpoint)),
    namespaceDefaults: new NamespaceDefaultsController(core.namespaces, core.serviceAccounts, core.configMaps, cfg.caCert, controller),
    garbageCollector: new GarbageCollector(built.all, controller, admittedDeletes(GARBAGE_COLLECTOR_USER, deps, preferredEndpoint),
      admittedUpdates(GARBAGE_COLLECTOR_USER, deps, preferredEndpoint)),
    resourceQuota: new ResourceQuotaController({
      quotas: core.resourceQuotas, followed: built.namespaced, controller,
      storeFor: (gr) => built.byName.get(resourceName(gr)) ?? crServer.servedStores().get(resourceName(gr))?.store,
    }),
    // kube-controller-manager's pvc-protection, pv-protection and vac-protection controllers, which
    // release the finalizers StorageObjectInUseProtection adds.
    pvcProtection: new PVCProtectionController(core.persistentVolumeClaims, core.pods, controller),
    pvProtection: new PVProtectionController(core.persistentVolumes, controller),
    vacProtection: optional.volumeAttributesClasses === undefined ? undefined
      : new VACProtectionController(optional.volumeAttributesClasses, core.persistentVolumeClaims, core.persistentVolumes, controller),
    clusterRoleAggregation: new ClusterRoleAggregationController(built.rbac.clusterRoles, { controller }),
    storageVersionMigrator: svmStore === undefined ? undefined : new StorageVersionMigrator({
      migrations: svmStore, controller, storeFor: (gr) => built.byName.get(gr) ?? crServer.servedStores().get(gr)?.store,
    }),
    validatingAdmissionPolicyStatus: vapStore === undefined ? undefined : new ValidatingAdmissionPolicyStatusController(vapStore,
      typeCheckDeps(() => [...installer.discovery, ...crServer.discovery()], () => crServer.servedResources()), controller),
  };
  let boundPort = 0;
  // The aggregator's discovery and OpenAPI: what the backends of APIServices serve, merged in.
  const discoveryManager = new DiscoveryManager(built.apiServices, backendClients, { informers: informerFor });
  const openAPIAggregation = new OpenAPIAggregationController(built.apiServices, backendClients, undefined, { informers: informerFor });
  // Priority and fairness: the server's seats are the two in-flight limits together.
  const { controller: apf, hooks: flowControl, dumps: apfDumps } = newFlowControl(cfg.enablePriorityAndFairness !== false,
    cfg.maxRequestsInFlight + cfg.maxMutatingRequestsInFlight, built.byName, informerFor);
  const leaseStore = built.byName.get('leases.coordination.k8s.io');
  const identityLease = leaseStore === undefined ? undefined
    : new IdentityLeaseController(leaseStore, () => (cfg.advertiseAddress === undefined ? undefined : hostPort(cfg.advertiseAddress, boundPort)));
  // The reconciler needs the bound port: made when the hooks run.
  let endpointReconciler: LeaseEndpointReconciler | undefined;
  const reconciler = (): LeaseEndpointReconciler | undefined => {
    if (cfg.endpointReconcilerType !== 'lease' || cfg.advertiseAddress === undefined) return undefined;
    endpointReconciler ??= new LeaseEndpointReconciler({
      backend: cfg.backend, etcdPrefix: cfg.etcdPrefix, endpoints: core.endpoints, endpointSlices: optional.endpointSlices,
      ip: cfg.advertiseAddress, port: boundPort,
    });
    return endpointReconciler;
  };
  const hooks = new PostStartHooks(controlPlaneHooks({
    ...(flowControl === undefined ? {} : { flowControl }),
    ...(identityLease === undefined ? {} : { identityLease }),
    endpointReconciler: reconciler,
    backend: cfg.backend, etcdPrefix: cfg.etcdPrefix, storage: built, informers, rbacCache,
    rbacBootstrap: new RBACBootstrapController({ ...built.rbac, namespaces: core.namespaces }),
    crServer, crdController: new CRDController({
      crds: built.crds, beforeEstablish: (crd) => crServer.observe(crd), instances: (crd) => crServer.newStoreFor(crd), controller,
    }),
    crdRegistration: new CRDRegistrationController(built.crds, built.apiServices, controller),
    discoveryManager, openAPIAggregation,
    followCustomResources: () => followCustomResources(crServer, controllers.garbageCollector, informers),
    discovery: () => installer.discovery, bootstrap: () => ({ ...cfg, securePort: boundPort }), controllers,
    clusterAuthentication: new ClusterAuthenticationTrustController(core.configMaps, cfg.clusterAuthenticationInfo ?? {}, controller),
    aggregatorHooks: aggregator.hooks,
  }));

  // kube's chain is aggregator → kube-apiserver → apiextensions-apiserver: the aggregator's proxy
  // is asked first (GenericAPIServer's proxy), then the built-in routes, then the apiextensions server.
  const delegates: readonly Pick<CustomResourceServer, 'serve'>[] = [crServer];
  let stopping = false;
  const etcdCheck: HealthCheck = { name: 'etcd', check: async () => { await cfg.backend.currentRevision(); } };
  const livez: HealthCheck[] = [{ name: 'ping', check: () => {} }, { name: 'log', check: () => {} }, etcdCheck];
  // kube adds the KMS check to /healthz and /readyz only (addHealthChecksWithoutLivez).
  const kmsChecks = kmsHealthChecks(cfg.encryption);
  const debug = cfg.profiling === true ? debugHandlers(cfg.verbosity ?? newVerbosity(0)) : [];
  const server: GenericAPIServer = new GenericAPIServer({
    installer, openWatches: deps.openWatches, proxy: (path) => aggregator.handlerFor(path),
    nonResource: new Map<string, NonResourceHandler>([
      ...openAPIHandlers(installer, crServer, { controller: openAPIAggregation, clients: backendClients }), ...issuerDiscovery(cfg, () => boundPort), ...metricsHandlers(),
      ...apfDumps, ...debug]),
    // kube lists neither the APF dumps, the debug paths nor the trailing-slash forms of the issuer discovery paths in `GET /`.
    unlisted: new Set([...apfDumps.map(([p]) => p), ...debug.map(([p]) => p), ...issuerDiscovery(cfg, () => boundPort).map(([p]) => p).filter((p) => p.endsWith('/'))]),
    livez: [...livez, ...hooks.healthChecks()],
    readyz: [...livez, informerSync(informers), ...kmsChecks, ...hooks.healthChecks(), { name: 'shutdown', check: () => { if (stopping) throw new Error('shutting down'); } }],
    // The rest of kube's server chain: what no built-in route serves goes to each delegate in turn, then 404.
    extraDiscovery: () => crServer.discovery(),
    discoveryMerge: new AggregatorDiscovery(discoveryManager, servedPriority),
    delegate: async (req, res, state) => {
      for (const d of delegates) if (await d.serve(req, res, state)) return;
      server.notFound(res, state);
    },
    filters: [
      withAuditInit(),
      ...(cfg.httpLog === undefined ? [] : [withHTTPLog(cfg.httpLog, () => (cfg.verbosity?.get() ?? 3) >= 3)]),
      withPanicRecovery(),
      withRequestInfo(),
      withRequestMetrics(),
      ...(cfg.shutdownSendRetryAfter === true ? [withRetryAfter((): boolean => server.notAcceptingNewRequests)] : []),
      ...ifConfigured(withHSTS(cfg.hstsDirectives ?? [])),
      withCacheControl(),
      ...ifConfigured(withProbabilisticGoaway(cfg.goawayChance ?? 0)),
      ...ifConfigured(withCORS(cfg.corsAllowedOrigins ?? [])),
      ...(cfg.auditor === undefined ? [] : [withFailedAuthenticationAudit(cfg.auditor)]),
      withAuthentication(cfg.authenticator, cfg.anonymousAllowed),
      ...(cfg.auditor === undefined ? [] : [withAudit(cfg.auditor)]),
      withImpersonation(authorization.authorizer),
      apf === undefined ? withMaxInFlight(cfg.maxRequestsInFlight, cfg.maxMutatingRequestsInFlight) : withPriorityAndFairness(apf, cfg.requestTimeoutSeconds * 1000),
      withAuthorization(authorization.authorizer),
      withTimeout(cfg.requestTimeoutSeconds),
    ],
  });

  return {
    server,
    replaceAuthorizers: (modes, webhooks) => { authorization.replace(modes, webhooks); },
    tokenGetter: {
      async get(kind, namespace, name) {
        const stores = { ServiceAccount: core.serviceAccounts, Pod: core.pods, Secret: core.secrets, Node: core.nodes };
        try {
          const { metadata } = await stores[kind].get(systemContext(namespace), name, {});
          return { uid: metadata.uid ?? '', deletionTimestamp: metadata.deletionTimestamp };
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      },
    },
    secretGetter: {
      async get(namespace, name) {
        try {
          const s = await core.secrets.get(systemContext(namespace), name, {}) as KubeObject & { type?: string; data?: Record<string, string> };
          return { type: s.type, data: s.data, deletionTimestamp: s.metadata.deletionTimestamp };
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      },
    },
    async start(securePort) {
      boundPort = securePort;
      await hooks.runAll();
    },
    async stop() {
      // As kube's ShutdownInitiated: /readyz fails at once, and everything else keeps being
      // served for the delay, so that load balancers take the server out first. The pre-shutdown
      // hook (this server leaves the kubernetes endpoints) runs meanwhile.
      stopping = true;
      const preShutdown = (endpointReconciler?.removeEndpoints() ?? Promise.resolve())
        .catch((err: unknown) => { console.error('endpoint reconciler: removing this server:', err); });
      if ((cfg.shutdownDelayMs ?? 0) > 0) await sleep(cfg.shutdownDelayMs);
      await preShutdown;
      // NotAcceptingNewRequest, then the drain; the controllers stop once requests are done.
      await server.shutdown({
        ...(cfg.shutdownSendRetryAfter !== undefined ? { sendRetryAfter: cfg.shutdownSendRetryAfter } : {}),
        ...(cfg.shutdownWatchTerminationGracePeriodMs !== undefined ? { watchGraceMs: cfg.shutdownWatchTerminationGracePeriodMs } : {}),
      });
      // The audit backend flushes once requests have drained, as kube's.
      await cfg.auditor?.sink.shutdown();
      await hooks.stopAll();
      watchCaches.stop();
      webhookClients.close();
      backendClients.close();
    },
  };
}

/** A filter that is only in the chain when configured. */
const ifConfigured = (f: Filter | undefined): Filter[] => (f === undefined ? [] : [f]);

/**
 * The garbage collector follows custom resources from when their CRD is served until it is gone
 * (or its storage changes); returns what stops following.
 */
function followCustomResources(crServer: CustomResourceServer, gc: GarbageCollector, informers: SharedInformerFactory): () => void {
  const followed = new Map<string, ServedStore>();
  const sync = (): void => {
    const served = crServer.servedStores();
    for (const [name, f] of followed) {
      if (served.get(name)?.identity === f.identity) continue;
      gc.removeStore(f.store);
      informers.forget(resourceName(f.store.definition));
      followed.delete(name);
    }
    for (const [name, s] of served) {
      if (followed.has(name)) continue;
      followed.set(name, s);
      gc.addStore(s.store).catch((err: unknown) => { console.error(`garbage collector: custom resources of ${name}:`, err); });
    }
  };
  const off = crServer.onChange(sync);
  sync();
  return () => { off(); };
}
