// The post-start hooks of the control plane, as data, in kube-apiserver's order (the order its
// /readyz?verbose lists them): each names what it starts and how it stops. Hooks with kube's
// name are listed in /healthz, /livez and /readyz; kube-controller-manager's controllers, which
// kapi runs in-process, are hooks too, unlisted, as kube-apiserver does not list them.
// Counterpart of k8s.io/apiserver/pkg/server/hooks.go and the hooks pkg/controlplane/apiserver adds.
import type { StorageVersionMigrator } from './storage-version-migrator.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { SharedInformerFactory } from '../client/cache/informer-factory.ts';
import type { CRDController, CustomResourceServer } from '../apiextensions/index.ts';
import type { RBACCache } from '../authz/rbac/cache.ts';
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { PostStartHook } from '../server/post-start-hooks.ts';
import type { HealthCheck } from '../server/healthz.ts';
import type { Backend } from '../storage/backend.ts';
import { bootstrapKubernetesService, ensureSystemNamespaces, ensureSystemPriorityClasses, type BootstrapOptions } from './bootstrap.ts';
import type { CRDRegistrationController } from './crd-registration-controller.ts';
import type { LeaseEndpointReconciler } from './endpoint-reconciler.ts';
import type { IdentityLeaseController } from './identity-lease.ts';
import type { GarbageCollector } from './garbage-collector.ts';
import type { ClusterAuthenticationTrustController } from './cluster-authentication-trust.ts';
import { ensureLegacyTokenTracking } from './legacy-token-tracking.ts';
import { registerLocalAPIServices } from './local-apiservices.ts';
import type { NamespaceController } from './namespace-controller.ts';
import type { ValidatingAdmissionPolicyStatusController } from './vap-status-controller.ts';
import type { NamespaceDefaultsController } from './namespace-defaults-controller.ts';
import type { PVCProtectionController } from './pvc-protection-controller.ts';
import type { PVProtectionController } from './pv-protection-controller.ts';
import type { VACProtectionController } from './vac-protection-controller.ts';
import type { ClusterRoleAggregationController, RBACBootstrapController } from './rbac-bootstrap/index.ts';
import type { ResourceQuotaController } from './resource-quota-controller.ts';
import type { ServerStorage } from './storage-providers.ts';
import { migrateLegacyKeys } from './storage-factory.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

/** What the hooks run: built by newControlPlane, started here. */
export interface HookDeps {
  readonly backend: Backend;
  readonly etcdPrefix: string;
  readonly storage: ServerStorage;
  readonly informers: SharedInformerFactory;
  readonly rbacCache: RBACCache | undefined;
  readonly rbacBootstrap: RBACBootstrapController;
  readonly crServer: CustomResourceServer;
  readonly crdController: CRDController;
  readonly crdRegistration: CRDRegistrationController;
  /** The aggregator's discovery manager (apiservice-discovery-controller). */
  readonly discoveryManager: { start(): Promise<void>; stop(): void };
  /** The aggregator's OpenAPI controller (v2 and v3 alike). */
  readonly openAPIAggregation: { start(): Promise<void>; stop(): void };
  /** The garbage collector follows custom resources from when their CRD is served until it is gone. */
  readonly followCustomResources: () => () => void;
  readonly discovery: () => readonly DiscoveryGroup[];
  readonly bootstrap: () => BootstrapOptions;
  /** Publishes the extension-apiserver-authentication ConfigMap and keeps it current. */
  readonly clusterAuthentication: ClusterAuthenticationTrustController;
  /** The aggregator's hooks (aggregator.ts), in kube's order, before autoregistration. */
  readonly aggregatorHooks: readonly PostStartHook[];
  /** Priority and fairness's hooks (consumer, filter, producer); absent with --enable-priority-and-fairness=false. */
  readonly flowControl?: { readonly consumer: PostStartHook; readonly filter: PostStartHook; readonly producer: PostStartHook };
  /** The identity Lease (absent when coordination.k8s.io is not served). */
  readonly identityLease?: IdentityLeaseController;
  /** --endpoint-reconciler-type=lease with an address to advertise (made once the port is bound). */
  readonly endpointReconciler?: () => LeaseEndpointReconciler | undefined;
  readonly controllers: {
    readonly namespace: NamespaceController;
    readonly namespaceDefaults: NamespaceDefaultsController;
    readonly garbageCollector: GarbageCollector;
    readonly resourceQuota: ResourceQuotaController;
    readonly pvcProtection: PVCProtectionController;
    readonly pvProtection: PVProtectionController;
    /** Absent when storage.k8s.io/v1 VolumeAttributesClasses are not served. */
    readonly vacProtection: VACProtectionController | undefined;
    readonly clusterRoleAggregation: ClusterRoleAggregationController;
    /** Absent when admissionregistration.k8s.io/v1 is not served. */
    readonly validatingAdmissionPolicyStatus: ValidatingAdmissionPolicyStatusController | undefined;
    /** Absent when storagemigration.k8s.io is not served (off by default, as in kube). */
    readonly storageVersionMigrator: StorageVersionMigrator | undefined;
  };
}

/** A controller as an unlisted hook named as kube-controller-manager names it. */
const controllerHook = (name: string, c: { start(): Promise<void>; stop(): void }): PostStartHook =>
  ({ name, listed: false, start: () => c.start(), stop: () => c.stop() });

export function controlPlaneHooks(d: HookDeps): PostStartHook[] {
  const { core } = d.storage;
  const c = d.controllers;
  let unfollowCRs: (() => void) | undefined;
  return [
    // Objects a kapi older than kube's key layout wrote are moved first (kapi's own; kube has no such step).
    { name: 'storage-key-migration', listed: false, start: async () => {
      const moved = await migrateLegacyKeys(d.backend, d.etcdPrefix, d.storage.all.map((s) => s.definition));
      if (moved > 0) console.log(`storage: moved ${moved} objects to kube-apiserver's key layout`);
    } },
    // Every informer made so far (RBAC's, admission's listers, the controllers'), synced before anything reads them.
    { name: 'generic-apiserver-start-informers', start: async () => { await d.informers.start(); await d.rbacCache?.start(); },
      stop: () => { d.rbacCache?.stop(); d.informers.stop(); } },
    ...(d.flowControl === undefined ? [] : [d.flowControl.consumer, d.flowControl.filter]),
    { name: 'start-apiextensions-informers', start: () => d.crServer.start(), stop: () => d.crServer.stop() },
    { name: 'start-apiextensions-controllers', start: () => d.crdController.start(), stop: () => d.crdController.stop(),
      done: () => d.crdController.hasSynced() },
    { name: 'crd-informer-synced', start: () => d.crServer.synced(), done: () => d.crServer.hasSynced() },
    { name: 'start-system-namespaces-controller', start: () => ensureSystemNamespaces(core.namespaces) },
    { name: 'start-cluster-authentication-info-controller',
      start: () => d.clusterAuthentication.start(), stop: () => d.clusterAuthentication.stop() },
    ...(d.identityLease === undefined ? [] : [
      { name: 'start-kube-apiserver-identity-lease-controller', start: () => d.identityLease?.start(), stop: () => d.identityLease?.stop() },
      { name: 'start-kube-apiserver-identity-lease-garbage-collector', start: () => d.identityLease?.startGC() },
    ]),
    { name: 'start-legacy-token-tracking-controller', start: () => ensureLegacyTokenTracking(core.configMaps) },
    { name: 'rbac/bootstrap-roles', start: async () => { await d.rbacBootstrap.start(); }, stop: () => d.rbacBootstrap.stop() },
    ...(d.storage.optional.priorityClasses === undefined ? [] : [{
      name: 'scheduling/bootstrap-system-priority-classes', start: () => ensureSystemPriorityClasses(d.storage.optional.priorityClasses as ResourceStore<KubeObject>),
    }]),
    ...(d.flowControl === undefined ? [] : [d.flowControl.producer]),
    { name: 'bootstrap-controller', start: () => bootstrapKubernetesService(
      { services: core.services, endpoints: core.endpoints, endpointSlices: d.storage.optional.endpointSlices,
        serviceCIDRs: d.storage.optional.serviceCIDRs }, d.bootstrap()).then(() => d.endpointReconciler?.()?.start()),
      stop: () => d.endpointReconciler?.()?.stop() },
    controllerHook('clusterrole-aggregation-controller', c.clusterRoleAggregation),
    controllerHook('namespace-controller', c.namespace),
    controllerHook('garbage-collector-controller', c.garbageCollector),
    { name: 'garbage-collector-custom-resources', listed: false,
      start: () => { unfollowCRs = d.followCustomResources(); }, stop: () => unfollowCRs?.() },
    controllerHook('resourcequota-controller', c.resourceQuota),
    controllerHook('persistentvolumeclaim-protection-controller', c.pvcProtection),
    controllerHook('persistentvolume-protection-controller', c.pvProtection),
    ...(c.vacProtection === undefined ? [] : [controllerHook('volumeattributesclass-protection-controller', c.vacProtection)]),
    controllerHook('serviceaccount-and-root-ca-cert-publisher-controllers', c.namespaceDefaults),
    ...(c.storageVersionMigrator === undefined ? [] : [controllerHook('storage-version-migrator-controller', c.storageVersionMigrator)]),
    ...(c.validatingAdmissionPolicyStatus === undefined ? [] : [controllerHook('validatingadmissionpolicy-status-controller', c.validatingAdmissionPolicyStatus)]),
    ...d.aggregatorHooks,
    // The aggregator's: what backends of APIServices serve, merged into discovery.
    { name: 'apiservice-discovery-controller', start: () => d.discoveryManager.start(), stop: () => d.discoveryManager.stop() },
    // kube's autoregister and crdregistration controllers: the APIServices of what this server serves.
    { name: 'kube-apiserver-autoregistration', start: async () => {
      await registerLocalAPIServices(d.storage.apiServices, d.discovery());
      await d.crdRegistration.start();
    }, stop: () => d.crdRegistration.stop() },
    { name: 'apiservice-openapi-controller', start: () => d.openAPIAggregation.start(), stop: () => d.openAPIAggregation.stop() },
    // One controller fetches both documents of a backend; kube runs one per version.
    { name: 'apiservice-openapiv3-controller', start: () => {} },
  ];
}

/** kube's informer-sync readiness check: every started shared informer has synced. */
export function informerSync(informers: SharedInformerFactory): HealthCheck {
  return {
    name: 'informer-sync',
    check: () => {
      const waiting = informers.unsynced();
      if (waiting.length > 0) throw new Error(`${waiting.length} informers not started yet: [${waiting.join(' ')}]`);
    },
  };
}
