// Service validation (ValidateService, ValidateServiceUpdate, ValidateServiceStatusUpdate).
import {
  duplicate, fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath,
} from '../../../apimachinery/errors/field-errors.ts';
import { isValidIPForLegacyField } from '../../../apimachinery/validation/ip.ts';
import { nameIsDNS1035Label, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import {
  isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortName, isValidPortNum,
} from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { IntOrString, Service, ServicePort } from '../v1/types.ts';
import { validateClusterIPsRelatedFields, validateUpgradeDowngrade } from './cluster-ips.ts';
import { externallyAccessible } from './defaults.ts';

type RO<T> = DeepReadonly<T>;
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const KUBELET_PORT = 10250;

export const isHeadless = (svc: RO<Service>): boolean => svc.spec.clusterIP === 'None';

function validatePortNumOrName(port: IntOrString | undefined, p: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(p, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(p, port, m));
  return [];
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
  errs.push(...isValidPortNum(sp.port).map((m) => invalid(p.child('port'), sp.port, m)));
  const proto = sp.protocol ?? '';
  if (proto === '') errs.push(required(p.child('protocol')));
  else if (!PROTOCOLS.includes(proto)) errs.push(notSupported(p.child('protocol'), proto, PROTOCOLS));
  errs.push(...validatePortNumOrName(sp.targetPort, p.child('targetPort')));
  if (sp.appProtocol !== undefined) errs.push(...isQualifiedName(sp.appProtocol).map((m) => invalid(p.child('appProtocol'), sp.appProtocol, m)));
  return errs;
}

/** `old` on update: addresses it already holds stay valid (IsValidIPForLegacyField). */
export function validateService(svc: RO<Service>, old?: RO<Service>): FieldError[] {
  const errs = validateObjectMeta(svc.metadata, { namespaced: true, nameFn: nameIsDNS1035Label });
  const spec = svc.spec ?? {};
  const specPath = fieldPath('spec');
  const ports = spec.ports ?? [];
  const headless = isHeadless(svc);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(required(specPath.child('ports')));
  switch (spec.type) {
    case 'LoadBalancer':
      if (headless) errs.push(invalid(specPath.child('clusterIPs').index(0), 'None', "may not be set to 'None' for LoadBalancer services"));
      ports.forEach((p, i) => {
        if (p.port === KUBELET_PORT) errs.push(invalid(specPath.child('ports').index(i), p.port, `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`));
      });
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
  (spec.externalIPs ?? []).forEach((ip, i) => errs.push(...isValidIPForLegacyField(specPath.child('externalIPs').index(i), ip, false)));
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
  const etp = spec.externalTrafficPolicy;
  if (etp !== undefined && etp !== '') {
    if (!externallyAccessible(svc)) {
      errs.push(invalid(specPath.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
    } else if (etp !== 'Cluster' && etp !== 'Local') {
      errs.push(notSupported(specPath.child('externalTrafficPolicy'), etp, ['Cluster', 'Local']));
    }
  } else if (externallyAccessible(svc)) {
    errs.push(required(specPath.child('externalTrafficPolicy')));
  }
  const itp = spec.internalTrafficPolicy;
  if (itp !== undefined && itp !== 'Cluster' && itp !== 'Local') errs.push(notSupported(specPath.child('internalTrafficPolicy'), itp, ['Cluster', 'Local']));
  if (itp === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(type)) errs.push(required(specPath.child('internalTrafficPolicy')));
  return errs;
}

/** The primary cluster IP and IP family cannot change once set (unless to or from ExternalName). */
export function validateServiceUpdate(svc: RO<Service>, old: RO<Service>): FieldError[] {
  return [...validateUpgradeDowngrade(svc, old), ...validateService(svc, old).filter((e) => !e.field.startsWith('metadata.'))];
}

export function validateServiceStatusUpdate(svc: RO<Service>): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('status', 'loadBalancer', 'ingress');
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    if ((ing.ip ?? '') !== '') errs.push(...isValidIPForLegacyField(p.index(i).child('ip'), ing.ip ?? '', false));
    if (ing.ipMode !== undefined && (ing.ip ?? '') === '') errs.push(forbidden(p.index(i).child('ipMode'), 'may not be specified when `ip` is not set'));
    if (ing.ipMode === undefined && (ing.ip ?? '') !== '') errs.push(required(p.index(i).child('ipMode'), 'must be specified when `ip` is set'));
    if ((ing.hostname ?? '') !== '') errs.push(...isDNS1123Subdomain(ing.hostname ?? '').map((m) => invalid(p.index(i).child('hostname'), ing.hostname, m)));
  });
  return errs;
}
