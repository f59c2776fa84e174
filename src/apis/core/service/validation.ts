// Service validation as kube v1.36's pkg/apis/core/validation (ValidateServiceCreate, ValidateServiceUpdate,
// ValidateServiceStatusUpdate); the load-balancer and traffic rules are in validation-lb.ts.
import {
  duplicate, fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { isValidIPForLegacyField } from '../../../apimachinery/validation/ip.ts';
import { nameIsDNSLabel, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import {
  isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortName, isValidPortNum,
} from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { IntOrString, Service, ServicePort } from '../v1/types.ts';
import { validateNonSpecialIP } from '../endpoints/endpoints.ts';
import { validateClusterIPsRelatedFields, validateUpgradeDowngrade } from './cluster-ips.ts';
import {
  STRICT_IP, validateExternalTrafficPolicy, validateHealthCheckNodePortUpdate, validateInternalTrafficPolicy,
  validateLoadBalancerClass, validateLoadBalancerFields, validateLoadBalancerStatus, validateSourceRanges,
  validateTrafficDistribution,
} from './validation-lb.ts';

type RO<T> = DeepReadonly<T>;
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';

export const isHeadless = (svc: RO<Service>): boolean => svc.spec.clusterIP === 'None';

function validatePortNumOrName(port: IntOrString | undefined, p: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(p, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(p, port, m));
  // An absent port is Go's zero IntOrString: the integer 0.
  return isValidPortNum(0).map((m) => invalid(p, 0, m));
}

function validateServicePort(sp: RO<ServicePort>, requireName: boolean, names: Set<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = sp.name ?? '';
  if (requireName && name === '') errs.push(required(p.child('name')));
  else if (name !== '') {
    errs.push(...isDNS1123Label(name).map((m) => invalid(p.child('name'), name, m)));
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
  }
  const port = sp.port ?? 0;
  errs.push(...isValidPortNum(port).map((m) => invalid(p.child('port'), port, m)));
  const proto = sp.protocol ?? '';
  if (proto === '') errs.push(required(p.child('protocol')));
  else if (!PROTOCOLS.includes(proto)) errs.push(notSupported(p.child('protocol'), proto, PROTOCOLS));
  errs.push(...validatePortNumOrName(sp.targetPort, p.child('targetPort')));
  if (sp.appProtocol !== undefined) errs.push(...isQualifiedName(sp.appProtocol).map((m) => invalid(p.child('appProtocol'), sp.appProtocol, m)));
  return errs;
}

/** ValidateServiceCreate; RelaxedServiceNameValidation is on in v1.36, so names are DNS-1123 labels. */
export function validateService(svc: RO<Service>): FieldError[] {
  return [...validateObjectMeta(svc.metadata, { namespaced: true, nameFn: nameIsDNSLabel }), ...validateServiceFields(svc, undefined)];
}

/** validateService (object meta aside); `old` on update: values it already holds stay valid. */
function validateServiceFields(svc: RO<Service>, old: RO<Service> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = svc.metadata.annotations ?? {};
  const mode = annotations[TOPOLOGY_MODE];
  if (mode !== undefined && Object.hasOwn(annotations, TOPOLOGY_HINTS) && mode !== annotations[TOPOLOGY_HINTS]) {
    errs.push(invalid(fieldPath('metadata', 'annotations').key(TOPOLOGY_MODE), mode, `must match annotations[${TOPOLOGY_HINTS}] when both are specified`));
  }
  const spec = svc.spec ?? {};
  const specPath = fieldPath('spec');
  const ports = spec.ports ?? [];
  const headless = isHeadless(svc);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(required(specPath.child('ports')));
  switch (spec.type) {
    case 'LoadBalancer':
      if (headless) errs.push(invalid(specPath.child('clusterIPs').index(0), 'None', "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (headless) errs.push(invalid(specPath.child('clusterIPs').index(0), 'None', "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if ((spec.clusterIPs ?? []).length > 0) errs.push(forbidden(specPath.child('clusterIPs'), 'may not be set for ExternalName services'));
      if ((spec.ipFamilies ?? []).length > 0) errs.push(forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined) errs.push(forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname.length > 0) errs.push(...isDNS1123Subdomain(cname).map((m) => invalid(specPath.child('externalName'), cname, m)));
      else errs.push(required(specPath.child('externalName')));
      break;
    }
    default:
      break;
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, specPath.child('ports').index(i))));
  if (spec.selector !== undefined) errs.push(...validateLabels(spec.selector, specPath.child('selector')));
  const affinity = spec.sessionAffinity ?? '';
  if (affinity === '') errs.push(required(specPath.child('sessionAffinity')));
  else if (affinity !== 'ClientIP' && affinity !== 'None') errs.push(notSupported(specPath.child('sessionAffinity'), affinity, ['ClientIP', 'None']));
  if (affinity === 'ClientIP') {
    const t = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (t === undefined || t <= 0 || t > 86400) {
      errs.push(invalid(specPath.child('sessionAffinityConfig', 'clientIP', 'timeoutSeconds'), t ?? 0, 'must be greater than 0 and less than 86400'));
    }
  } else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined) {
    errs.push(forbidden(specPath.child('sessionAffinityConfig'), 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelatedFields(svc, old));
  // externalIPs: new ones must be valid and not special (kube reuses the endpoint IP checks)
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const p = specPath.child('externalIPs').index(i);
    const ipErrs = isValidIPForLegacyField(p, ip, STRICT_IP, old?.spec.externalIPs ?? []);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, p)));
  });
  const type = spec.type ?? '';
  if (type === '') errs.push(required(specPath.child('type')));
  else if (!SERVICE_TYPES.includes(type)) errs.push(notSupported(specPath.child('type'), type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if ((p.nodePort ?? 0) !== 0) errs.push(forbidden(specPath.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if ((p.nodePort ?? 0) === 0) return;
    const k = `${p.protocol ?? ''}/${p.nodePort ?? 0}`;
    if (nodePorts.has(k)) errs.push(duplicate(specPath.child('ports').index(i).child('nodePort'), p.nodePort));
    nodePorts.add(k);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const k = `${p.protocol ?? ''}/${p.port}`;
    // the bad value is the (protocol, port) key, printed as Go marshals the internal struct
    if (seen.has(k)) errs.push(duplicate(specPath.child('ports').index(i), { Name: '', Protocol: p.protocol ?? '', AppProtocol: null, Port: p.port, TargetPort: 0, NodePort: 0 }));
    seen.add(k);
  });
  errs.push(...validateSourceRanges(svc, old), ...validateLoadBalancerFields(svc), ...validateLoadBalancerClass(svc, undefined));
  errs.push(...validateExternalTrafficPolicy(svc), ...validateInternalTrafficPolicy(svc), ...validateTrafficDistribution(svc));
  return errs;
}

/** ValidateServiceUpdate (object meta is checked by the registry): cluster IPs and families may only
 * be upgraded or downgraded, loadBalancerClass and a needed health check port stay. */
export function validateServiceUpdate(svc: RO<Service>, old: RO<Service>): FieldError[] {
  return [
    ...validateUpgradeDowngrade(svc, old), ...validateLoadBalancerClass(svc, old),
    ...validateHealthCheckNodePortUpdate(svc, old), ...validateServiceFields(svc, old),
  ];
}

/** ValidateServiceStatusUpdate (object meta is checked by the registry). */
export function validateServiceStatusUpdate(svc: RO<Service>, old?: RO<Service>): FieldError[] {
  return validateLoadBalancerStatus(svc, old);
}
