// Services (pkg/registry/core/service): defaults, validation, the status split, and cluster IP
// and node port allocation through write hooks.
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { copyOf, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { Service } from '../v1/types.ts';
import { needsClusterIP, needsHealthCheckNodePort, newServiceHooks, type ServiceAllocators } from './alloc.ts';
import { normalizeClusterIPs } from './cluster-ips.ts';
import { defaultService, externallyAccessible } from './defaults.ts';
import { serviceTable } from './table.ts';
import { validateService, validateServiceStatusUpdate, validateServiceUpdate } from './validation.ts';
import { serviceWarnings } from './warnings.ts';

const nodePortSet = (svc: DeepReadonly<Service>): Set<number> =>
  new Set((svc.spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0));

/**
 * dropTypeDependentFields (kube's service strategy): fields the new type (or traffic policy) no
 * longer uses are wiped, but only those the client left as they were; a changed value is
 * for validation to refuse.
 */
function dropTypeDependentFields(svc: Service, old: DeepReadonly<Service>): void {
  const spec = svc.spec;
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if ((old.spec.clusterIP ?? '') === (spec.clusterIP ?? '') && deepEqual(old.spec.clusterIPs ?? [], spec.clusterIPs ?? [])) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (deepEqual(old.spec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if ((old.spec.ipFamilyPolicy ?? '') === (spec.ipFamilyPolicy ?? '')) delete spec.ipFamilyPolicy;
  }
  const usesNodePorts = (x: DeepReadonly<Service>): boolean => x.spec.type === 'NodePort' || x.spec.type === 'LoadBalancer';
  // users may add, remove or change ports as long as no node port is new
  const oldNodePorts = nodePortSet(old);
  if (usesNodePorts(old) && !usesNodePorts(svc) && [...nodePortSet(svc)].every((n) => oldNodePorts.has(n))) {
    for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(svc) && (old.spec.healthCheckNodePort ?? 0) === (spec.healthCheckNodePort ?? 0)) {
    delete spec.healthCheckNodePort;
  }
  if (old.spec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== undefined &&
      spec.allocateLoadBalancerNodePorts === old.spec.allocateLoadBalancerNodePorts) {
    delete spec.allocateLoadBalancerNodePorts;
  }
  if (old.spec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer' && old.spec.loadBalancerClass === spec.loadBalancerClass) delete spec.loadBalancerClass;
  if (externallyAccessible(old) && !externallyAccessible(svc) && (old.spec.externalTrafficPolicy ?? '') === (spec.externalTrafficPolicy ?? '')) {
    delete spec.externalTrafficPolicy;
  }
  // a load balancer's status goes with the type (de-provisioning is not the user's concern)
  if (spec.type !== 'LoadBalancer') svc.status = { loadBalancer: {} };
}

export const serviceStrategy = specStatusStrategy<Service>({
  prepareForCreate(_ctx, svc) {
    // Go always serializes status.loadBalancer (a struct, not a pointer).
    svc.status = { loadBalancer: {} };
    normalizeClusterIPs(svc, undefined);
  },
  validate: (svc) => validateService(svc),
  warningsOnCreate: (svc) => serviceWarnings(svc),
  allowCreateOnUpdate: true,
  prepareForUpdate(_ctx, svc, old) {
    setOptional(svc, 'status', old.status === undefined ? undefined : copyOf<Service['status']>(old.status));
    dropTypeDependentFields(svc, old);
  },
  revalidateOnUpdate: false,
  validateUpdate: (svc, old) => validateServiceUpdate(svc, old),
  warningsOnUpdate: (svc) => serviceWarnings(svc),
});

const serviceStatusStrategy = statusStrategy<Service>(serviceStrategy, {
  validate: (svc, old) => validateServiceStatusUpdate(svc, old),
  warningsOnUpdate: null,
});

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
