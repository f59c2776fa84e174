// Assembles kube-apiserver: storage, the core API group, admission, the handler chain, health
// checks, OpenAPI, bootstrap and controllers. `startControlPlane` is what `kapi serve` and the
// library entry run.
// Counterpart of pkg/controlplane/instance.go and cmd/kube-apiserver/app/server.go
// (CreateServerChain).
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { Scheme } from '../apimachinery/runtime/scheme.ts';
import { newAdmissionChain, type AdmissionOptions } from './admission.ts';
import { APIInstaller } from '../endpoints/installer.ts';
import type { HandlerDeps } from '../endpoints/handlers/scope.ts';
import type { ServiceAccountTokenGetter } from '../authn/serviceaccount/index.ts';
import type { RequestAuthenticator } from '../server/filters/authentication.ts';
import { withAuthentication } from '../server/filters/authentication.ts';
import { withAuthorization } from '../server/filters/authorization.ts';
import { withImpersonation } from '../server/filters/impersonation.ts';
import { newAuthorizationChain, type AuthorizationMode } from '../authz/modes.ts';
import { RBACCache, type ListWatcher } from '../authz/rbac/cache.ts';
import { RBACAuthorizer } from '../authz/rbac/rbac.ts';
import { withMaxInFlight } from '../server/filters/max-in-flight.ts';
import { withPanicRecovery } from '../server/filters/panic-recovery.ts';
import { withAuditInit } from '../server/filters/audit-init.ts';
import { withHTTPLog } from '../server/filters/httplog.ts';
import { withCacheControl } from '../server/filters/cache-control.ts';
import { withRequestInfo } from '../server/filters/request-info.ts';
import { withTimeout } from '../server/filters/timeout.ts';
import { GenericAPIServer, type NonResourceHandler } from '../server/generic-server.ts';
import type { HealthCheck } from '../server/healthz.ts';
import type { Backend } from '../storage/backend.ts';
import type { Store } from '../registry/generic/store.ts';
import type { GracefulDeleter } from '../registry/rest/capabilities.ts';
import { bootstrapControlPlane, type BootstrapOptions } from './bootstrap.ts';
import { RBACBootstrap } from './rbac-bootstrap/index.ts';
import { migrateLegacyKeys } from './storage-factory.ts';
import { buildGroupREST } from './group-rest.ts';
import { registerLocalAPIServices } from './local-apiservices.ts';
import { CRDRegistrationController } from './crd-registration-controller.ts';
import { builtInGroups } from './groups.ts';
import { resolveRuntimeConfig } from './runtime-config.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import { GarbageCollector } from './garbage-collector.ts';
import { ObjectCache } from './object-cache.ts';
import { NamespaceDefaultsController } from './namespace-defaults-controller.ts';
import { NamespaceController } from './namespace-controller.ts';
import { ResourceQuotaController } from './resource-quota-controller.ts';
import { PVCProtectionController } from './pvc-protection-controller.ts';
import { PVProtectionController } from './pv-protection-controller.ts';
import { coreDefinitions, type CoreOptions } from './core-definitions.ts';
import { openAPIHandlers } from './openapi.ts';
import { decodeBody } from '../apimachinery/fieldvalidation/index.ts';
import { isNotFound } from '../apimachinery/errors/status-error.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { CRDController, CustomResourceServer, type ServedStore } from '../apiextensions/index.ts';

export interface ControlPlaneConfig extends Omit<BootstrapOptions, 'securePort'>, CoreOptions {
  readonly backend: Backend;
  readonly etcdPrefix: string;
  readonly authenticator: RequestAuthenticator;
  readonly anonymousAllowed: (path: string) => boolean;
  /** --authorization-mode, in order (kube puts the system:masters authorizer before them). */
  readonly authorizationModes: readonly AuthorizationMode[];
  readonly maxRequestsInFlight: number;
  readonly maxMutatingRequestsInFlight: number;
  readonly requestTimeoutSeconds: number;
  readonly minRequestTimeoutSeconds: number;
  /** --runtime-config. */
  readonly runtimeConfig: Readonly<Record<string, string>>;
  /** --enable-admission-plugins / --disable-admission-plugins. */
  readonly admission: AdmissionOptions;
  /** PEM of the cluster CA, published in every namespace as kube-root-ca.crt. */
  readonly caCert: string;
  /**
   * --shutdown-delay-duration: how long stop() keeps serving with /readyz failing before the
   * graceful termination starts (default 0).
   */
  readonly shutdownDelayMs?: number;
  /** Where the -v 3 request log goes; undefined: no request log. */
  readonly httpLog?: (line: string) => void;
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
}

const TOKEN_OBJECT_RESOURCES = { ServiceAccount: 'serviceaccounts', Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as const;

export async function newControlPlane(cfg: ControlPlaneConfig): Promise<ControlPlane> {
  const scheme = new Scheme();
  scheme.addUnversionedKinds({ group: '', version: 'v1' }, ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);
  const core = await coreDefinitions(cfg, cfg.backend, cfg.etcdPrefix);
  // RBAC follows the rbac.authorization.k8s.io stores (looked up once they are built).
  const rbacStore = (resource: string): ListWatcher => ({
    list: (ctx, opts) => storeOf(`${resource}.rbac.authorization.k8s.io`).list(ctx, opts),
    watch: (ctx, opts) => storeOf(`${resource}.rbac.authorization.k8s.io`).watch(ctx, opts),
  });
  const rbacSources = {
    roles: rbacStore('roles'), roleBindings: rbacStore('rolebindings'),
    clusterRoles: rbacStore('clusterroles'), clusterRoleBindings: rbacStore('clusterrolebindings'),
  };
  const rbacCache = cfg.authorizationModes.includes('RBAC') ? new RBACCache(rbacSources) : undefined;
  const authorization = newAuthorizationChain(cfg.authorizationModes, rbacCache === undefined ? undefined : new RBACAuthorizer(rbacCache));
  const groups: APIGroupDefinition[] = [core, ...builtInGroups({
    eventTTLSeconds: cfg.eventTTLSeconds,
    authenticate: async (token, audiences) => {
      if (cfg.authenticator.authenticateToken !== undefined) return await cfg.authenticator.authenticateToken(token, audiences);
      const user = await cfg.authenticator.authenticate({ authorization: `Bearer ${token}` }, audiences);
      return user === undefined ? undefined : { user };
    },
    authorization, rbacReaders: rbacSources,
  })];
  const enabled = resolveRuntimeConfig(cfg.runtimeConfig,
    groups.flatMap((g) => g.versions.map((v) => ({ group: g.group, version: v.version }))));
  const stores = new Map<string, Store<KubeObject>>();
  // In order: a group may share the storage of one built before it (events.k8s.io → core events).
  const rests = groups.map((g) => {
    const rest = buildGroupREST(scheme, cfg.backend, cfg.etcdPrefix, g, (v) => enabled(g.group, v), (gr) => stores.get(gr));
    for (const [k, s] of rest.stores) stores.set(k, s);
    return rest;
  });
  const storeOf = (r: string): Store<KubeObject> => {
    const s = stores.get(r);
    if (s === undefined) throw new Error(`no store for ${r}`);
    return s;
  };

  const namespaceCache = new ObjectCache(storeOf('namespaces'));
  // Admission reads these on every create (quotas) or pod create (limit ranges): from memory.
  const quotaCache = new ObjectCache(storeOf('resourcequotas'));
  const limitRangeCache = new ObjectCache(storeOf('limitranges'));
  const admission = newAdmissionChain(cfg.admission, {
    namespaces: (name) => namespaceCache.get('', name), serviceAccounts: storeOf('serviceaccounts'),
    priorityClasses: stores.get('priorityclasses.scheduling.k8s.io'),
    limitRanges: limitRangeCache, storageClasses: stores.get('storageclasses.storage.k8s.io'),
    ingressClasses: stores.get('ingressclasses.networking.k8s.io'),
    resourceQuotaLister: quotaCache, resourceQuotas: stores.get('resourcequotas'),
  });
  const deps: HandlerDeps = {
    scheme, admission, decodeBody, minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds, openWatches: new Set(),
  };
  const installer = new APIInstaller(deps, rests.map((r) => r.install).filter((i) => i.versions.length > 0));

  const rbacBootstrap = new RBACBootstrap(stores);
  let bootstrapped = false;
  let stopping = false;
  const etcdCheck: HealthCheck = { name: 'etcd', check: async () => { await cfg.backend.currentRevision(); } };
  const livez: HealthCheck[] = [{ name: 'ping', check: () => {} }, { name: 'log', check: () => {} }, etcdCheck];
  const readyz: HealthCheck[] = [...livez,
    { name: 'poststarthook/bootstrap-controller', check: () => { if (!bootstrapped) throw new Error('not finished'); } },
    rbacBootstrap.readyz,
    { name: 'shutdown', check: () => { if (stopping) throw new Error('shutting down'); } },
  ];
  const crdStore = storeOf('customresourcedefinitions.apiextensions.k8s.io');
  const crServer = new CustomResourceServer({
    crds: crdStore, backend: cfg.backend, etcdPrefix: cfg.etcdPrefix, admission,
    minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds, openWatches: deps.openWatches,
  });
  const crdController = new CRDController({
    crds: crdStore, beforeEstablish: (crd) => crServer.observe(crd), instances: (crd) => crServer.newStoreFor(crd),
  });
  const crdRegistration = new CRDRegistrationController(crdStore, storeOf('apiservices.apiregistration.k8s.io'));
  const nonResource = new Map<string, NonResourceHandler>(openAPIHandlers(installer, crServer));

  const server = new GenericAPIServer({
    installer, livez, readyz, nonResource, openWatches: deps.openWatches,
    // The apiextensions server: custom resources, served after every built-in route.
    extraDiscovery: () => crServer.discovery(),
    delegate: async (req, res, state) => {
      if (!(await crServer.serve(req, res, state))) server.notFound(res, state);
    },
    filters: [
      withAuditInit(),
      ...(cfg.httpLog === undefined ? [] : [withHTTPLog(cfg.httpLog)]),
      withPanicRecovery(),
      withRequestInfo(),
      withCacheControl(),
      withMaxInFlight(cfg.maxRequestsInFlight, cfg.maxMutatingRequestsInFlight),
      withAuthentication(cfg.authenticator, cfg.anonymousAllowed),
      withImpersonation(authorization.authorizer),
      withAuthorization(authorization.authorizer),
      withTimeout(cfg.requestTimeoutSeconds),
    ],
  });

  const namespaced = [...stores.entries()]
    .filter(([r, s]) => !r.includes('/') && s.definition.namespaced)
    .map(([, s]) => s);
  const namespaceDefaults = new NamespaceDefaultsController(storeOf('namespaces'), storeOf('serviceaccounts'),
    storeOf('configmaps'), cfg.caCert);
  // kube-controller-manager's pvc-protection and pv-protection controllers, which release the
  // finalizers StorageObjectInUseProtection adds.
  const pvcProtection = new PVCProtectionController(storeOf('persistentvolumeclaims'), storeOf('pods'));
  const pvProtection = new PVProtectionController(storeOf('persistentvolumes'));
  // kube-controller-manager's resource quota controller: status.hard and status.used of quotas.
  const quotaController = new ResourceQuotaController({
    quotas: storeOf('resourcequotas'), followed: namespaced,
    storeFor: (gr) => {
      const key = gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
      return stores.get(key) ?? crServer.servedStores().get(key)?.store;
    },
  });
  const gc = new GarbageCollector([...stores.entries()].filter(([r]) => !r.includes('/')).map(([, s]) => s));
  const customResourceStores = (): Store<KubeObject>[] => [...crServer.servedStores().values()].map((s) => s.store);
  const nsController = new NamespaceController(
    storeOf('namespaces') as Store<KubeObject> & GracefulDeleter, storeOf('namespaces/finalize'),
    () => [...namespaced, ...customResourceStores().filter((s) => s.definition.namespaced)]);
  // The garbage collector follows custom resources from when their CRD is served until it is gone.
  const followed = new Map<string, ServedStore>();
  const followCustomResources = (): void => {
    const served = crServer.servedStores();
    for (const [name, f] of followed) {
      if (served.get(name)?.identity !== f.identity) { gc.removeStore(f.store); followed.delete(name); }
    }
    for (const [name, s] of served) {
      if (followed.has(name)) continue;
      followed.set(name, s);
      gc.addStore(s.store).catch((err: unknown) => { console.error(`garbage collector: custom resources of ${name}:`, err); });
    }
  };

  return {
    server,
    tokenGetter: {
      async get(kind, namespace, name) {
        try {
          const { metadata } = await storeOf(TOKEN_OBJECT_RESOURCES[kind]).get(systemContext(namespace), name, {});
          return { uid: metadata.uid ?? '', deletionTimestamp: metadata.deletionTimestamp };
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      },
    },
    async start(securePort) {
      const moved = await migrateLegacyKeys(cfg.backend, cfg.etcdPrefix,
        [...stores.entries()].filter(([r]) => !r.includes('/')).map(([, st]) => st.definition));
      if (moved > 0) console.log(`storage: moved ${moved} objects to kube-apiserver's key layout`);
      await rbacCache?.start();
      await bootstrapControlPlane(stores, { ...cfg, securePort });
      await rbacBootstrap.start();
      await registerLocalAPIServices(storeOf('apiservices.apiregistration.k8s.io'), installer.discovery);
      await nsController.start();
      await namespaceCache.start();
      await quotaCache.start();
      await limitRangeCache.start();
      await gc.start();
      await quotaController.start();
      await pvcProtection.start();
      await pvProtection.start();
      await namespaceDefaults.start();
      await crServer.start();
      crServer.onChange(followCustomResources);
      followCustomResources();
      await crdController.start();
      await crdRegistration.start();
      bootstrapped = true;
    },
    async stop() {
      // As kube's ShutdownInitiated: /readyz fails at once, and everything else keeps being
      // served for the delay, so that load balancers take the server out first.
      stopping = true;
      if ((cfg.shutdownDelayMs ?? 0) > 0) await sleep(cfg.shutdownDelayMs);
      rbacCache?.stop();
      rbacBootstrap.stop();
      nsController.stop();
      namespaceCache.stop();
      quotaCache.stop();
      limitRangeCache.stop();
      gc.stop();
      quotaController.stop();
      pvcProtection.stop();
      pvProtection.stop();
      namespaceDefaults.stop();
      crdController.stop();
      crdRegistration.stop();
      crServer.stop();
      await server.shutdown();
    },
  };
}
