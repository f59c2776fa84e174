// Warnings for services (pkg/api/service/warnings.go: GetWarningsForService).
import { fieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { cidrWarnings, ipWarnings } from '../../../apimachinery/validation/ip-warnings.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Service } from '../v1/types.ts';

const DEPRECATED_TOPOLOGY_HINTS_ANNOTATION = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE_ANNOTATION = 'service.kubernetes.io/topology-mode';

/** GetWarningsForService. */
export function serviceWarnings(svc: DeepReadonly<Service>): string[] {
  const warnings: string[] = [];
  const spec = svc.spec;
  if (Object.hasOwn(svc.metadata.annotations ?? {}, DEPRECATED_TOPOLOGY_HINTS_ANNOTATION)) {
    warnings.push(`annotation ${DEPRECATED_TOPOLOGY_HINTS_ANNOTATION} is deprecated, please use ${TOPOLOGY_MODE_ANNOTATION} instead`);
  }
  const clusterIP = spec.clusterIP ?? '';
  if (clusterIP !== '' && clusterIP !== 'None') {
    (spec.clusterIPs ?? []).forEach((ip, i) => warnings.push(...ipWarnings(fieldPath('spec').child('clusterIPs').index(i), ip)));
  }
  if ((spec.type ?? 'ClusterIP') === 'ClusterIP' && clusterIP === 'None') {
    if ((spec.loadBalancerIP ?? '') !== '') warnings.push('spec.loadBalancerIP is ignored for headless services');
    if ((spec.externalIPs ?? []).length > 0) warnings.push('spec.externalIPs is ignored for headless services');
    if ((spec.sessionAffinity ?? 'None') !== 'None') warnings.push('spec.SessionAffinity is ignored for headless services');
  }
  (spec.externalIPs ?? []).forEach((ip, i) => warnings.push(...ipWarnings(fieldPath('spec').child('externalIPs').index(i), ip)));
  const headless = (spec.type ?? 'ClusterIP') === 'ClusterIP' && clusterIP === 'None';
  if ((spec.externalIPs ?? []).length > 0 && !headless && spec.type !== 'ExternalName') {
    warnings.push('spec.externalIPs is deprecated and may no longer be implemented in some clusters');
  }
  if ((spec.loadBalancerIP ?? '') !== '') warnings.push(...ipWarnings(fieldPath('spec').child('loadBalancerIP'), spec.loadBalancerIP ?? ''));
  (spec.loadBalancerSourceRanges ?? []).forEach((c, i) => warnings.push(...cidrWarnings(fieldPath('spec').child('loadBalancerSourceRanges').index(i), c)));
  if (spec.type === 'ExternalName' && (spec.externalIPs ?? []).length > 0) warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (spec.type !== 'ExternalName' && (spec.externalName ?? '') !== '') warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  if (spec.trafficDistribution === 'PreferClose') warnings.push('spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"');
  return warnings;
}
