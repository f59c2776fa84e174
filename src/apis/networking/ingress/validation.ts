// Ingress validation (pkg/apis/networking/validation): rules, paths, backends, TLS and the
// load-balancer status. Stored objects keep leniencies they were admitted with (secret names,
// wildcard-host rules, DNS-label service names).
import { fieldPath, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isValidIPForLegacyField, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain, isValidPortName, isValidPortNum } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { HTTPIngressPath, Ingress, IngressBackend, IngressRule, IngressSpec, IngressStatus } from '../v1/types.ts';
import { ipWarnings } from '../../../apimachinery/validation/ip-warnings.ts';
import { isPathSegmentName, isWildcardDNS1123Subdomain } from '../validation-helpers.ts';

type RO<T> = DeepReadonly<T>;
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];
const ANNOTATION_INGRESS_CLASS = 'kubernetes.io/ingress.class';

export interface IngressValidationOptions {
  readonly allowInvalidSecretName: boolean;
  readonly allowInvalidWildcardHostRule: boolean;
}
const STRICT: IngressValidationOptions = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false };
/** kube v1.36 enables StrictIPCIDRValidation by default: no leading zeros, no IPv4-mapped IPv6. */
const STRICT_IP = true;

function validateBackend(b: RO<IngressBackend>, p: FieldPath): FieldError[] {
  if (b.resource !== undefined && b.service !== undefined) return [invalid(p, '', 'cannot set both resource and service backends')];
  const errs: FieldError[] = [];
  if (b.resource !== undefined) {
    const r = b.resource;
    const rp = p.child('resource');
    if (r.apiGroup !== undefined) for (const m of isDNS1123Subdomain(r.apiGroup)) errs.push(invalid(rp.child('apiGroup'), r.apiGroup, m));
    if ((r.kind ?? '') === '') errs.push(required(rp.child('kind')));
    else for (const m of isPathSegmentName(r.kind ?? '')) errs.push(invalid(rp.child('kind'), r.kind, m));
    if ((r.name ?? '') === '') errs.push(required(rp.child('name')));
    else for (const m of isPathSegmentName(r.name ?? '')) errs.push(invalid(rp.child('name'), r.name, m));
    return errs;
  }
  if (b.service === undefined) return [invalid(p, '', 'resource or service backend is required')];
  const name = b.service.name ?? '';
  if (name === '') errs.push(required(p.child('service', 'name')));
  // RelaxedServiceNameValidation (on by default in v1.36): service names are DNS labels.
  else for (const m of nameIsDNSLabel(name, false)) errs.push(invalid(p.child('service', 'name'), name, m));
  const portName = b.service.port?.name ?? '';
  const portNumber = b.service.port?.number ?? 0;
  if (portName !== '' && portNumber !== 0) errs.push(invalid(p, '', 'cannot set both port name & port number'));
  else if (portName !== '') for (const m of isValidPortName(portName)) errs.push(invalid(p.child('service', 'port', 'name'), portName, m));
  else if (portNumber !== 0) for (const m of isValidPortNum(portNumber)) errs.push(invalid(p.child('service', 'port', 'number'), portNumber, m));
  else errs.push(required(p, 'port name or number is required'));
  return errs;
}

function validatePath(path: RO<HTTPIngressPath>, p: FieldPath): FieldError[] {
  if (path.pathType === undefined) return [required(p.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = path.path ?? '';
  switch (path.pathType) {
    case 'Exact': case 'Prefix':
      if (!value.startsWith('/')) errs.push(invalid(p.child('path'), value, 'must be an absolute path'));
      if (value !== '') {
        for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) errs.push(invalid(p.child('path'), value, `must not contain '${seq}'`));
        for (const suf of INVALID_SUFFIXES) if (value.endsWith(suf)) errs.push(invalid(p.child('path'), value, `cannot end with '${suf}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value !== '' && !value.startsWith('/')) errs.push(invalid(p.child('path'), value, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(p.child('pathType'), path.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(path.backend ?? {}, p.child('backend')));
  return errs;
}

function validateRuleValue(rule: RO<IngressRule>, p: FieldPath): FieldError[] {
  if (rule.http === undefined) return [];
  const hp = p.child('http');
  const paths = rule.http.paths ?? [];
  const errs: FieldError[] = paths.length === 0 ? [required(hp.child('paths'))] : [];
  paths.forEach((x, i) => errs.push(...validatePath(x, hp.child('paths').index(i))));
  return errs;
}

function validateRules(rules: RO<IngressRule[]>, p: FieldPath, opts: IngressValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const host = rule.host ?? '';
    let wildcard = false;
    if (host !== '') {
      const hostPath = p.index(i).child('host');
      if (parseIPSloppy(host) !== undefined) errs.push(invalid(hostPath, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        for (const m of isWildcardDNS1123Subdomain(host)) errs.push(invalid(hostPath, host, m));
        wildcard = true;
      } else {
        for (const m of isDNS1123Subdomain(host)) errs.push(invalid(hostPath, host, m));
      }
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, p.index(i)));
  });
  return errs;
}

const tlsSecretNameErrors = (name: string): string[] => (name === '' ? [] : nameIsDNSSubdomain(name, false));

export function validateIngressSpec(spec: RO<IngressSpec>, opts: IngressValidationOptions): FieldError[] {
  const p = fieldPath('spec');
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && spec.defaultBackend === undefined) errs.push(invalid(p, spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend !== undefined) errs.push(...validateBackend(spec.defaultBackend, p.child('defaultBackend')));
  if (rules.length > 0) errs.push(...validateRules(rules, p.child('rules'), opts));
  (spec.tls ?? []).forEach((tls, i) => {
    const tp = p.child('tls').index(i);
    (tls.hosts ?? []).forEach((host, j) => {
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const m of msgs) errs.push(invalid(tp.child('hosts').index(j), host, m));
    });
    if (!opts.allowInvalidSecretName) for (const m of tlsSecretNameErrors(tls.secretName ?? '')) errs.push(invalid(tp.child('secretName'), tls.secretName, m));
  });
  if (spec.ingressClassName !== undefined) {
    for (const m of nameIsDNSSubdomain(spec.ingressClassName, false)) errs.push(invalid(p.child('ingressClassName'), spec.ingressClassName, m));
  }
  return errs;
}

export function validateIngressCreateSpec(ing: RO<Ingress>): FieldError[] {
  const errs = validateIngressSpec(ing.spec ?? {}, STRICT);
  const annotation = ing.metadata.annotations?.[ANNOTATION_INGRESS_CLASS];
  const className = ing.spec?.ingressClassName;
  if (annotation !== undefined && className !== undefined && annotation !== className) {
    errs.push(invalid(fieldPath('annotations').child(ANNOTATION_INGRESS_CLASS), annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

export function ingressUpdateOptions(old: RO<Ingress>): IngressValidationOptions {
  return {
    allowInvalidSecretName: (old.spec?.tls ?? []).some((t) => tlsSecretNameErrors(t.secretName ?? '').length > 0),
    allowInvalidWildcardHostRule: (old.spec?.rules ?? []).some((r) => (r.host ?? '').includes('*') && validateRuleValue(r, fieldPath('x')).length > 0),
  };
}

/** ValidateIngressLoadBalancerStatus: IPs (old ones tolerated) and hostnames that are not IPs. */
export function validateIngressStatus(status: RO<IngressStatus> | undefined, old: RO<IngressStatus> | undefined): FieldError[] {
  const p = fieldPath('status', 'loadBalancer', 'ingress');
  const existing = (old?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '').filter((ip) => ip !== '');
  const errs: FieldError[] = [];
  (status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    if ((ing.ip ?? '') !== '') errs.push(...isValidIPForLegacyField(p.index(i).child('ip'), ing.ip ?? '', STRICT_IP, existing));
    const hostname = ing.hostname ?? '';
    if (hostname !== '') {
      for (const m of isDNS1123Subdomain(hostname)) errs.push(invalid(p.index(i).child('hostname'), hostname, m));
      if (parseIPSloppy(hostname) !== undefined) errs.push(invalid(p.index(i).child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** The status strategy's warnings: IPs kube will refuse one day, IPv6 not in canonical form. */
export function ingressStatusWarnings(status: RO<IngressStatus> | undefined): string[] {
  const p = fieldPath('status', 'loadBalancer', 'ingress');
  return (status?.loadBalancer?.ingress ?? []).flatMap((ing, i) => ((ing.ip ?? '') === '' ? [] : ipWarnings(p.index(i), ing.ip ?? '')));
}
