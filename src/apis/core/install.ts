// The core/v1 resources kapi serves, for registration by the control plane.
//
// Wiring: each definition's `strategy` serves the main resource; `statusStrategy` (when set)
// serves `<resource>/status` (namespaces, nodes, pods, services, resourcequotas,
// persistentvolumes, persistentvolumeclaims). `namespaceFinalizeStrategy` serves
// PUT /api/v1/namespaces/{name}/finalize. Strategies validate metadata on create with the
// resource's own name rule; on update they return only non-metadata problems, since the
// Store runs validateObjectMetaUpdate itself.
// Counterpart of pkg/registry/core/rest/storage_core.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { newServiceAccountTokenIssuer, type ServiceAccountTokenIssuer } from '../../authn/serviceaccount/index.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import type { Interface as Storage } from '../../storage/interfaces.ts';
import { bindings } from './binding/binding.ts';
import { componentStatuses, type HealthProbe } from './componentstatus/componentstatus.ts';
import { configMaps } from './configmap/configmap.ts';
import { endpoints } from './endpoints/endpoints.ts';
import { DEFAULT_EVENT_TTL_SECONDS, newEventDefinition } from './event/event.ts';
import { limitRanges } from './limitrange/limitrange.ts';
import { namespaceFinalizeStrategy, namespaces } from './namespace/namespace.ts';
import { nodes } from './node/node.ts';
import { nodeSubresources } from './node/proxy.ts';
import { podSubresources } from './pod/subresources/index.ts';
import { persistentVolumeClaims } from './persistentvolumeclaim/persistentvolumeclaim.ts';
import { persistentVolumes } from './persistentvolume/persistentvolume.ts';
import { pods } from './pod/pod.ts';
import { replicationControllers } from './replicationcontroller/replicationcontroller.ts';
import { podTemplates } from './podtemplate/podtemplate.ts';
import { resourceQuotas } from './resourcequota/resourcequota.ts';
import { secrets } from './secret/secret.ts';
import { serviceAccounts } from './serviceaccount/serviceaccount.ts';
import { serviceAccountSubresources } from './serviceaccount/token.ts';
import { newIPAllocator, type IPAllocator } from './service/ipallocator.ts';
import { newPortAllocator, type PortAllocator } from './service/portallocator.ts';
import { serviceSubresources } from './service/proxy.ts';
import { newServiceDefinition } from './service/service.ts';
import type { IPAddressRecorder } from './service/alloc.ts';

export { namespaceFinalizeStrategy };

export interface CoreV1Deps {
  /** Either ready allocators, or storage plus ranges to build them from. */
  readonly serviceIPs?: IPAllocator;
  /** The second range of a dual-stack cluster (--service-cluster-ip-range[1]). */
  readonly secondaryServiceIPs?: IPAllocator;
  readonly nodePorts?: PortAllocator;
  /** Publishes allocated service IPs as IPAddress objects. */
  readonly ipAddresses?: IPAddressRecorder;
  readonly storage?: Storage;
  /** --service-cluster-ip-range; default 10.0.0.0/24 (kube-apiserver's default). */
  readonly serviceClusterIPRange?: string;
  /** --service-node-port-range; default 30000-32767. */
  readonly serviceNodePortRange?: string;
  /** --event-ttl in seconds; default 3600. */
  readonly eventTTLSeconds?: number;
  /** Signs serviceaccounts/token tokens; default a fresh in-memory P-256 key. */
  readonly serviceAccountTokenIssuer?: ServiceAccountTokenIssuer;
  /** --api-audiences: a TokenRequest's audiences when it names none (default the issuer). */
  readonly apiAudiences?: readonly string[];
  /** Components componentstatuses reports; default etcd-0 healthy ("ok"). */
  readonly components?: Readonly<Record<string, HealthProbe>>;
}

/** Resources whose DELETE answers with the object (ReturnDeletedObject in their Go storage). */
const RETURN_DELETED_OBJECT: ReadonlySet<string> = new Set([
  'pods', 'services', 'namespaces', 'serviceaccounts', 'persistentvolumes', 'persistentvolumeclaims',
  'podtemplates', 'resourcequotas', 'replicationcontrollers',
]);

export function coreV1Resources(deps: CoreV1Deps): ResourceDefinition<KubeObject>[] {
  const storageOrThrow = (): Storage => {
    if (deps.storage === undefined) throw new Error('coreV1Resources: storage is required to build the service allocators');
    return deps.storage;
  };
  const serviceIPs = deps.serviceIPs ?? newIPAllocator(storageOrThrow(), deps.serviceClusterIPRange ?? '10.0.0.0/24');
  const nodePorts = deps.nodePorts ?? newPortAllocator(storageOrThrow(), deps.serviceNodePortRange ?? '30000-32767');
  const issuer = deps.serviceAccountTokenIssuer ?? newServiceAccountTokenIssuer();
  const services = newServiceDefinition({
    serviceIPs, nodePorts,
    ...(deps.secondaryServiceIPs !== undefined ? { secondaryServiceIPs: deps.secondaryServiceIPs } : {}),
    ...(deps.ipAddresses !== undefined ? { ipAddresses: deps.ipAddresses } : {}),
  });
  const defs: ResourceDefinition<KubeObject>[] = [
    { ...pods, extraSubresources: podSubresources },
    { ...services, extraSubresources: serviceSubresources },
    endpoints,
    namespaces,
    { ...nodes, extraSubresources: (_store, lookup) => nodeSubresources(lookup) },
    configMaps,
    secrets,
    { ...serviceAccounts, extraSubresources: serviceAccountSubresources(issuer, deps.apiAudiences) },
    newEventDefinition(deps.eventTTLSeconds ?? DEFAULT_EVENT_TTL_SECONDS),
    limitRanges,
    resourceQuotas,
    podTemplates,
    persistentVolumes,
    persistentVolumeClaims,
    replicationControllers,
  ];
  return defs.map((d) => (RETURN_DELETED_OBJECT.has(d.resource) ? { ...d, returnDeletedObject: true } : d));
}

/** The core group (/api/v1): its stored resources and those served without storage. */
export function coreV1Group(deps: CoreV1Deps): APIGroupDefinition {
  return {
    group: '',
    versions: [{
      version: 'v1',
      resources: coreV1Resources(deps),
      virtualResources: [bindings, componentStatuses(deps.components !== undefined ? { components: deps.components } : {})],
    }],
  };
}
