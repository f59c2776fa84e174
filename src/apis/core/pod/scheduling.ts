// Pod-level fields about placement and the pod's environment: DNS (validatePodDNSConfig),
// readiness and scheduling gates, topology spread constraints, host aliases, resource claims,
// image pull secrets and the OS.
// Counterpart of pkg/apis/core/validation/validation.go (validatePodDNSConfig,
// validateTopologySpreadConstraints).
import { duplicate, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { isValidIPForLegacyField } from '../../../apimachinery/validation/ip.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import { nameIsDNSSubdomain, validateLabelName } from '../../../apimachinery/validation/object-meta.ts';
import { maxLenError, regexError } from '../../../apimachinery/validation/validation.ts';
import { goStruct, POD_RESOURCE_CLAIM } from './go-struct.ts';
import { dns1123Label, dns1123Subdomain, list, num, obj, objects, optStr, qualifiedName, str, type Obj } from './spec-access.ts';

const LABEL_WITH_UNDERSCORE = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_WITH_UNDERSCORE = `${LABEL_WITH_UNDERSCORE}(\\.${LABEL_WITH_UNDERSCORE})*`;
const SUBDOMAIN_WITH_UNDERSCORE_RE = new RegExp(`^${SUBDOMAIN_WITH_UNDERSCORE}$`);

/** IsDNS1123SubdomainWithUnderscore: DNS search domains may hold '_' (RelaxedDNSSearchValidation is GA). */
function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!SUBDOMAIN_WITH_UNDERSCORE_RE.test(value)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', " +
      'and must start and end with an alphanumeric character', SUBDOMAIN_WITH_UNDERSCORE, 'example.com'));
  }
  return errs;
}

/** StrictIPCIDRValidation is on in v1.36. */
const STRICT_IP = true;

const strings = (o: Obj | undefined, k: string): string[] => list(o, k).map((v) => (typeof v === 'string' ? v : ''));

export function validateDNSConfig(raw: unknown, dnsPolicy: string, p: FieldPath): FieldError[] {
  const cfg = obj(raw);
  if (dnsPolicy === 'None') {
    if (cfg === undefined) return [required(p, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(cfg, 'nameservers').length === 0) return [required(p.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (cfg === undefined) return [];
  const errs: FieldError[] = [];
  const nameservers = strings(cfg, 'nameservers');
  if (nameservers.length > 3) errs.push(invalid(p.child('nameservers'), nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => errs.push(...isValidIPForLegacyField(p.child('nameservers').index(i), ns, STRICT_IP)));
  const searches = strings(cfg, 'searches');
  if (searches.length > 32) errs.push(invalid(p.child('searches'), searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) {
    errs.push(invalid(p.child('searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  }
  searches.forEach((s, i) => {
    // RelaxedDNSSearchValidation is GA: '_' allowed, and '.' alone
    if (s === '.') return;
    const domain = s.endsWith('.') ? s.slice(0, -1) : s;
    const sp = p.child('searches').index(i);
    for (const m of isDNS1123SubdomainWithUnderscore(domain)) errs.push(invalid(sp, domain, m));
  });
  objects(cfg, 'options').forEach((o, i) => { if (str(o, 'name') === '') errs.push(required(p.child('options').index(i), 'must not be empty')); });
  return errs;
}

export function validateReadinessGates(gates: readonly unknown[], p: FieldPath): FieldError[] {
  return gates.flatMap((g, i) => qualifiedName(str(obj(g), 'conditionType'), p.index(i).child('conditionType')));
}

export function validateSchedulingGates(gates: readonly unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  gates.forEach((g, i) => {
    const name = str(obj(g), 'name');
    errs.push(...qualifiedName(name, p.index(i)));
    if (seen.has(name)) errs.push(duplicate(p.index(i), name));
    seen.add(name);
  });
  return errs;
}

function validateMatchLabelKeysInTopologySpread(c: Obj, p: FieldPath): FieldError[] {
  const keys = strings(c, 'matchLabelKeys');
  if (keys.length === 0) return [];
  const labelSelector = obj(c['labelSelector']) as LabelSelector | undefined;
  const errs: FieldError[] = [];
  if (labelSelector === undefined) errs.push(forbidden(p, 'must not be specified when labelSelector is not set'));
  keys.forEach((k, i) => errs.push(...validateLabelName(k, p.index(i))));
  return errs;
}

const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(constraints: readonly unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const all = constraints.map((c) => obj(c) ?? {});
  all.forEach((c, i) => {
    const ip = p.index(i);
    const maxSkew = num(c, 'maxSkew') ?? 0;
    if (maxSkew <= 0) errs.push(invalid(ip.child('maxSkew'), maxSkew, 'must be greater than zero'));
    const key = str(c, 'topologyKey');
    if (key === '') errs.push(required(ip.child('topologyKey'), 'can not be empty'));
    const action = str(c, 'whenUnsatisfiable');
    if (action !== 'DoNotSchedule' && action !== 'ScheduleAnyway') {
      errs.push(notSupported(ip.child('whenUnsatisfiable'), action, ['DoNotSchedule', 'ScheduleAnyway']));
    }
    if (all.slice(i + 1).some((o) => str(o, 'topologyKey') === key && str(o, 'whenUnsatisfiable') === action)) {
      errs.push(duplicate(ip.child('{topologyKey, whenUnsatisfiable}'), `{${key}, ${action}}`));
    }
    const minDomains = num(c, 'minDomains');
    if (minDomains !== undefined) {
      if (minDomains <= 0) errs.push(invalid(ip.child('minDomains'), minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') {
        errs.push(invalid(ip.child('minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
      }
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = optStr(c, k);
      if (v !== undefined && !NODE_INCLUSION_POLICIES.includes(v)) errs.push(notSupported(ip.child(k), v, NODE_INCLUSION_POLICIES));
    }
    errs.push(...validateMatchLabelKeysInTopologySpread(c, ip.child('matchLabelKeys')));
    errs.push(...validateLabelSelector(obj(c['labelSelector']) as LabelSelector | undefined, {}, ip.child('labelSelector')));
  });
  return errs;
}

export function validateHostAliases(aliases: readonly unknown[], p: FieldPath): FieldError[] {
  return aliases.flatMap((raw, i) => {
    const a = obj(raw) ?? {};
    const ip = p.index(i);
    return [
      ...isValidIPForLegacyField(ip.child('ip'), str(a, 'ip'), STRICT_IP),
      ...strings(a, 'hostnames').flatMap((h, j) => dns1123Subdomain(h, ip.child('hostnames').index(j))),
    ];
  });
}

/** validatePodResourceClaims; the returned names are those containers may reference. */
export function validatePodResourceClaims(claims: readonly unknown[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  claims.forEach((raw, i) => {
    const c = obj(raw) ?? {};
    const ip = p.index(i);
    const name = str(c, 'name');
    if (name === '') errs.push(required(ip.child('name')));
    else if (names.has(name)) errs.push(duplicate(ip.child('name'), name));
    else { errs.push(...dns1123Label(name, ip.child('name'))); names.add(name); }
    const claimName = optStr(c, 'resourceClaimName');
    const templateName = optStr(c, 'resourceClaimTemplateName');
    if (claimName !== undefined && templateName !== undefined) {
      errs.push(invalid(ip, goStruct(c, POD_RESOURCE_CLAIM), 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    }
    if (claimName === undefined && templateName === undefined) errs.push(invalid(ip, goStruct(c, POD_RESOURCE_CLAIM), 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (claimName !== undefined) for (const m of nameIsDNSSubdomain(claimName, false)) errs.push(invalid(ip.child('resourceClaimName'), claimName, m));
    if (templateName !== undefined) {
      for (const m of nameIsDNSSubdomain(templateName, false)) errs.push(invalid(ip.child('resourceClaimTemplateName'), templateName, m));
    }
  });
  return errs;
}

export function gatherPodResourceClaimNames(claims: readonly unknown[]): Set<string> {
  return new Set(claims.map((c) => str(obj(c), 'name')).filter((n) => n !== ''));
}

/** validateImagePullSecrets: only `name` may be set. */
export function validateImagePullSecrets(secrets: readonly unknown[], p: FieldPath): FieldError[] {
  return secrets.flatMap((raw, i) => {
    const s = obj(raw) ?? {};
    return Object.keys(s).some((k) => k !== 'name') ? [invalid(p.index(i), s, 'only name may be set')] : [];
  });
}

export function validateOS(raw: unknown, p: FieldPath): FieldError[] {
  const os = obj(raw);
  if (os === undefined) return [];
  const name = str(os, 'name');
  if (name === '') return [required(p.child('name'))];
  return name === 'linux' || name === 'windows' ? [] : [notSupported(p, name, ['linux', 'windows'])];
}
