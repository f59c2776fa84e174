// The load-balancer and traffic parts of Service validation (validateService's source ranges,
// allocateLoadBalancerNodePorts, loadBalancerClass, traffic policies, health check node port,
// trafficDistribution; ValidateLoadBalancerStatus), with kube v1.36's paths and messages.
// Counterpart of pkg/apis/core/validation/validation.go (ValidateService).
import {
  fieldPath, forbidden, invalid, notSupported, required, type FieldError,
} from '../../../apimachinery/errors/field-errors.ts';
import { isValidCIDRForLegacyField, isValidIPForLegacyField, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import { isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Service } from '../v1/types.ts';
import { externallyAccessible } from './defaults.ts';

type RO<T> = DeepReadonly<T>;

/** kube v1.36 enables StrictIPCIDRValidation by default: no leading zeros, no IPv4-mapped IPv6. */
export const STRICT_IP = true;
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const ONLY_LB = "may only be used when `type` is 'LoadBalancer'";
const IP_MODES = ['Proxy', 'VIP'];
// PreferSameTrafficDistribution is on by default in v1.36, so all three are offered (in this order).
const TRAFFIC_DISTRIBUTIONS = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];

const isLB = (svc: RO<Service>): boolean => svc.spec.type === 'LoadBalancer';
const needsHealthCheck = (svc: RO<Service>): boolean => isLB(svc) && svc.spec.externalTrafficPolicy === 'Local';

/** The field or, without it, the legacy annotation; values that `old` already held stay valid. */
export function validateSourceRanges(svc: RO<Service>, old: RO<Service> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const ranges = svc.spec.loadBalancerSourceRanges ?? [];
  if (ranges.length > 0) {
    // kube names this path with a capital L (a historical accident kept on the wire)
    const p = fieldPath('spec', 'LoadBalancerSourceRanges');
    if (!isLB(svc)) errs.push(forbidden(p, ONLY_LB));
    const existing = (old?.spec.loadBalancerSourceRanges ?? []).map((v) => v.trim());
    ranges.forEach((v, i) => errs.push(...isValidCIDRForLegacyField(p.index(i), v.trim(), STRICT_IP, existing)));
    return errs;
  }
  const annotations = svc.metadata.annotations ?? {};
  if (!Object.hasOwn(annotations, SOURCE_RANGES_ANNOTATION)) return errs;
  const val = annotations[SOURCE_RANGES_ANNOTATION] ?? '';
  const p = fieldPath('metadata', 'annotations').key(SOURCE_RANGES_ANNOTATION);
  if (!isLB(svc)) errs.push(forbidden(p, ONLY_LB));
  if (old !== undefined && old.metadata.annotations?.[SOURCE_RANGES_ANNOTATION] === val) return errs;
  const trimmed = val.trim();
  if (trimmed !== '') for (const v of trimmed.split(',')) errs.push(...isValidCIDRForLegacyField(p, v.trim(), STRICT_IP));
  return errs;
}

/** loadBalancerClass: a qualified name on LoadBalancers only; fixed while the service stays one. */
export function validateLoadBalancerClass(svc: RO<Service>, old: RO<Service> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('spec', 'loadBalancerClass');
  const cls = svc.spec.loadBalancerClass;
  if (old !== undefined && isLB(old) && isLB(svc) && old.spec.loadBalancerClass !== cls) errs.push(invalid(p, cls ?? null, 'may not change once set'));
  if (!isLB(svc)) {
    if (cls !== undefined) errs.push(forbidden(p, ONLY_LB));
  } else if (cls !== undefined) {
    errs.push(...isQualifiedName(cls).map((m) => invalid(p, cls, m)));
  }
  return errs;
}

export function validateLoadBalancerFields(svc: RO<Service>): FieldError[] {
  const errs: FieldError[] = [];
  if (svc.spec.allocateLoadBalancerNodePorts !== undefined && !isLB(svc)) errs.push(forbidden(fieldPath('spec', 'allocateLoadBalancerNodePorts'), ONLY_LB));
  // kube's path lacks the `spec.` prefix here; defaulting fills the field, so it is rarely seen
  if (isLB(svc) && svc.spec.allocateLoadBalancerNodePorts === undefined) errs.push(required(fieldPath('allocateLoadBalancerNodePorts')));
  return errs;
}

export function validateExternalTrafficPolicy(svc: RO<Service>): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('spec', 'externalTrafficPolicy');
  const etp = svc.spec.externalTrafficPolicy ?? '';
  if (!externallyAccessible(svc)) {
    if (etp !== '') errs.push(invalid(p, etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') {
    errs.push(required(p));
  } else if (etp !== 'Cluster' && etp !== 'Local') {
    errs.push(notSupported(p, etp, ['Cluster', 'Local']));
  }
  const hp = fieldPath('spec', 'healthCheckNodePort');
  const hc = svc.spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(svc)) {
    if (hc !== 0) errs.push(invalid(hp, hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) {
    errs.push(required(hp));
  } else {
    errs.push(...isValidPortNum(hc).map((m) => invalid(hp, hc, m)));
  }
  return errs;
}

export function validateInternalTrafficPolicy(svc: RO<Service>): FieldError[] {
  const itp = svc.spec.internalTrafficPolicy;
  const p = fieldPath('spec', 'internalTrafficPolicy');
  if (itp === undefined) return ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(svc.spec.type ?? '') ? [required(p)] : [];
  return itp === 'Cluster' || itp === 'Local' ? [] : [notSupported(p, itp, ['Cluster', 'Local'])];
}

export function validateTrafficDistribution(svc: RO<Service>): FieldError[] {
  const td = svc.spec.trafficDistribution;
  if (td === undefined || TRAFFIC_DISTRIBUTIONS.includes(td)) return [];
  return [notSupported(fieldPath('spec', 'trafficDistribution'), td, TRAFFIC_DISTRIBUTIONS)];
}

/** validateServiceExternalTrafficFieldsUpdate: the health check port stays while it is needed. */
export function validateHealthCheckNodePortUpdate(svc: RO<Service>, old: RO<Service>): FieldError[] {
  if (!needsHealthCheck(old) || !needsHealthCheck(svc)) return [];
  return svc.spec.healthCheckNodePort === old.spec.healthCheckNodePort ? [] : [forbidden(fieldPath('spec', 'healthCheckNodePort'), 'field is immutable')];
}

/** ValidateLoadBalancerStatus; ingress IPs the old status held stay valid. */
export function validateLoadBalancerStatus(svc: RO<Service>, old: RO<Service> | undefined): FieldError[] {
  const p = fieldPath('status', 'loadBalancer', 'ingress');
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  if (!isLB(svc) && ingress.length > 0) return [forbidden(p, "may only be used when `spec.type` is 'LoadBalancer'")];
  const existing = (old?.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '').filter((ip) => ip !== '');
  const errs: FieldError[] = [];
  ingress.forEach((ing, i) => {
    const ip = ing.ip ?? '';
    const hostname = ing.hostname ?? '';
    if (ip !== '') errs.push(...isValidIPForLegacyField(p.index(i).child('ip'), ip, STRICT_IP, existing));
    if (ing.ipMode === undefined) {
      if (ip !== '') errs.push(required(p.index(i).child('ipMode'), 'must be specified when `ip` is set'));
    } else if (ip === '') {
      errs.push(forbidden(p.index(i).child('ipMode'), 'may not be specified when `ip` is not set'));
    } else if (!IP_MODES.includes(ing.ipMode)) {
      errs.push(notSupported(p.index(i).child('ipMode'), ing.ipMode, IP_MODES));
    }
    if (hostname !== '') {
      errs.push(...isDNS1123Subdomain(hostname).map((m) => invalid(p.index(i).child('hostname'), hostname, m)));
      if (parseIPSloppy(hostname) !== undefined) errs.push(invalid(p.index(i).child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
