// Services (pkg/registry/core/service): defaults, validation, the status split, and cluster IP
// and node port allocation through write hooks.
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../../registry/rest/strategy.ts';
import { copyOf, setOptional } from '../common.ts';
import type { Service } from '../v1/types.ts';
import { newServiceHooks, type ServiceAllocators } from './alloc.ts';
import { normalizeClusterIPs } from './cluster-ips.ts';
import { defaultService } from './defaults.ts';
import { serviceTable } from './table.ts';
import { validateService, validateServiceStatusUpdate, validateServiceUpdate } from './validation.ts';
import { serviceWarnings } from './warnings.ts';

/** When the type changes, fields of the old type that the client did not touch go (dropTypeDependentFields). */
function dropTypeDependentFields(svc: Service, old: DeepReadonly<Service>): void {
  if (svc.spec.type === old.spec.type) return;
  const same = deepEqual;
  if (svc.spec.type === 'ExternalName') {
    if (same(svc.spec.clusterIP, old.spec.clusterIP)) delete svc.spec.clusterIP;
    if (same(svc.spec.clusterIPs, old.spec.clusterIPs)) delete svc.spec.clusterIPs;
    if (same(svc.spec.ipFamilies, old.spec.ipFamilies)) delete svc.spec.ipFamilies;
    if (same(svc.spec.ipFamilyPolicy, old.spec.ipFamilyPolicy)) delete svc.spec.ipFamilyPolicy;
    if (same(svc.spec.internalTrafficPolicy, old.spec.internalTrafficPolicy)) delete svc.spec.internalTrafficPolicy;
  }
  const needsNodePorts = svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer';
  if (!needsNodePorts) {
    (svc.spec.ports ?? []).forEach((p, i) => {
      const o = old.spec.ports?.[i];
      if (o !== undefined && p.nodePort === o.nodePort) delete p.nodePort;
    });
  }
  if (svc.spec.type !== 'LoadBalancer') {
    if (same(svc.spec.healthCheckNodePort, old.spec.healthCheckNodePort)) delete svc.spec.healthCheckNodePort;
    if (same(svc.spec.allocateLoadBalancerNodePorts, old.spec.allocateLoadBalancerNodePorts)) delete svc.spec.allocateLoadBalancerNodePorts;
    if (same(svc.spec.loadBalancerClass, old.spec.loadBalancerClass)) delete svc.spec.loadBalancerClass;
  }
  const accessible = needsNodePorts || (svc.spec.type === 'ClusterIP' && (svc.spec.externalIPs ?? []).length > 0);
  if (!accessible && same(svc.spec.externalTrafficPolicy, old.spec.externalTrafficPolicy)) delete svc.spec.externalTrafficPolicy;
}

export const serviceStrategy: Strategy<Service> = {
  prepareForCreate(_ctx, svc) {
    // Go always serializes status.loadBalancer (a struct, not a pointer).
    svc.status = { loadBalancer: {} };
    normalizeClusterIPs(svc, undefined);
  },
  validate: (_ctx, svc) => validateService(svc),
  warningsOnCreate: (_ctx, svc) => serviceWarnings(svc),
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForUpdate(_ctx, svc, old) {
    setOptional(svc, 'status', old.status === undefined ? undefined : copyOf<Service['status']>(old.status));
    dropTypeDependentFields(svc, old);
  },
  validateUpdate: (_ctx, svc, old) => validateServiceUpdate(svc, old),
  warningsOnUpdate: (_ctx, svc) => serviceWarnings(svc),
};

export const serviceStatusStrategy: Strategy<Service> = {
  ...serviceStrategy,
  prepareForUpdate(_ctx, svc, old) {
    svc.spec = copyOf<Service['spec']>(old.spec);
  },
  validateUpdate: (_ctx, svc, old) => validateServiceStatusUpdate(svc, old),
  warningsOnUpdate: () => [],
};

/** The services resource; allocators persist through storage so servers sharing it agree. */
export function newServiceDefinition(allocators: ServiceAllocators) {
  return {
    group: '', kind: 'Service', resource: 'services', singular: 'service', shortNames: ['svc'], categories: ['all'],
    namespaced: true,
    strategy: serviceStrategy,
    statusStrategy: serviceStatusStrategy,
    defaults: defaultService,
    hooks: newServiceHooks(allocators),
    selectableFields: (svc) => ({
      'metadata.name': svc.metadata.name ?? '',
      'metadata.namespace': svc.metadata.namespace ?? '',
      'spec.clusterIP': svc.spec.clusterIP ?? '',
      'spec.type': svc.spec.type ?? '',
    }),
    table: serviceTable,
  } satisfies ResourceDefinition<Service>;
}
