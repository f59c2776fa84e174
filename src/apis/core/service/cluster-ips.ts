// clusterIP/clusterIPs and ipFamilies/ipFamilyPolicy before allocation (registry/core/service/
// storage: normalizeClusterIPs and the allocator's initIPFamilyFields), and their validation
// (ValidateServiceClusterIPsRelatedFields and the upgrade/downgrade checks of ValidateServiceUpdate).
// Counterpart of pkg/registry/core/service/storage (normalizeClusterIPs).
import { duplicate, fieldPath, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { newInvalid } from '../../../apimachinery/errors/status-error.ts';
import { isValidIPForLegacyField, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Service } from '../v1/types.ts';
import { STRICT_IP } from './validation-lb.ts';

type RO<T> = DeepReadonly<T>;
type Family = 'IPv4' | 'IPv6';

const POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const FAMILIES = ['IPv4', 'IPv6'];
const ipsPath = fieldPath('spec', 'clusterIPs');
const familiesPath = fieldPath('spec', 'ipFamilies');
const policyPath = fieldPath('spec', 'ipFamilyPolicy');

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((v, i) => v === (b ?? [])[i]);
const sameClusterIPs = (a: RO<Service>, b: RO<Service>): boolean => sameList(a.spec.clusterIPs, b.spec.clusterIPs);
const sameIPFamilies = (a: RO<Service>, b: RO<Service>): boolean => sameList(a.spec.ipFamilies, b.spec.ipFamilies);
const isHeadless = (svc: RO<Service>): boolean => svc.spec.clusterIPs?.length === 1 && svc.spec.clusterIPs[0] === 'None';

function familyOf(ip: string): Family | 'unknown' {
  const p = parseIPSloppy(ip);
  return p === undefined ? 'unknown' : p.v4 ? 'IPv4' : 'IPv6';
}

/**
 * Keeps clusterIP and clusterIPs in step before anyone reads them: on create the singular field
 * alone fills the plural one; on update a changed clusterIP with unchanged clusterIPs carries into
 * clusterIPs (so validation reports the change itself), an omitted clusterIPs with the same
 * clusterIP is kept, and a cleared clusterIP with unchanged clusterIPs clears both.
 */
export function normalizeClusterIPs(svc: Service, old: RO<Service> | undefined): void {
  const ip = svc.spec.clusterIP ?? '';
  if (old === undefined) {
    if (ip !== '' && (svc.spec.clusterIPs ?? []).length === 0) svc.spec.clusterIPs = [ip];
    return;
  }
  const oldIP = old.spec.clusterIP ?? '';
  if ((old.spec.clusterIPs ?? []).length > 0 && (svc.spec.clusterIPs ?? []).length === 0 && oldIP === ip) {
    svc.spec.clusterIPs = [...(old.spec.clusterIPs ?? [])];
  }
  if (oldIP === ip) return;
  if (oldIP !== '' && ip === '') {
    if (sameClusterIPs(old, svc)) delete svc.spec.clusterIPs;
  } else if (sameClusterIPs(old, svc)) {
    svc.spec.clusterIPs = [ip];
  }
}

/** A PreferDualStack service whose IPs and families did not change keeps them as they are. */
function isMatchingPreferDualStack(svc: RO<Service>, old: RO<Service> | undefined): boolean {
  if (old === undefined || svc.spec.ipFamilyPolicy === undefined || old.spec.type !== svc.spec.type) return false;
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(svc.spec.type ?? '')) return false;
  if (svc.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  if (old.spec.ipFamilyPolicy !== undefined && old.spec.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameClusterIPs(old, svc) && sameIPFamilies(old, svc);
}

const reduced = (now: readonly string[] | undefined, before: readonly string[] | undefined): boolean =>
  (now ?? []).length > 0 && (now ?? []).length < (before ?? []).length;

/**
 * The allocator's initIPFamilyFields: defaults ipFamilyPolicy (the old one on update; a headless
 * service without selector RequireDualStack, else SingleStack) and ipFamilies (from clusterIPs,
 * else `families[0]`; a headless selectorless service gets both), and rejects with 422 what the
 * cluster cannot serve. `families`: the families the cluster has ranges for, default first.
 */
export function initIPFamilyFields(svc: Service, old: RO<Service> | undefined, families: readonly Family[]): void {
  const spec = svc.spec;
  if (spec.type === 'ExternalName' || isMatchingPreferDualStack(svc, old)) return;
  const selectorless = Object.keys(spec.selector ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined) {
    if (old?.spec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    else spec.ipFamilyPolicy = spec.clusterIP === 'None' && selectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const fail = (errs: FieldError[]): never => { throw newInvalid({ group: '', kind: 'Service' }, svc.metadata.name ?? '', errs); };
  const pre = validateClusterIPsRelatedFields(svc, old);
  if (pre.length > 0) fail(pre);
  const errs: FieldError[] = [];
  if (old !== undefined) {
    if (spec.ipFamilyPolicy === 'SingleStack') {
      if (sameClusterIPs(old, svc) && (spec.clusterIPs ?? []).length > 1) spec.clusterIPs = spec.clusterIPs?.slice(0, 1) ?? [];
      if (sameIPFamilies(old, svc) && (spec.ipFamilies ?? []).length > 1) spec.ipFamilies = spec.ipFamilies?.slice(0, 1) ?? [];
    } else {
      if (reduced(spec.clusterIPs, old.spec.clusterIPs)) errs.push(invalid(policyPath, spec.ipFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (reduced(spec.ipFamilies, old.spec.ipFamilies)) errs.push(invalid(policyPath, spec.ipFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if ((spec.clusterIPs ?? []).length === 2) {
      errs.push(invalid(policyPath, spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    }
    if ((spec.ipFamilies ?? []).length === 2) {
      errs.push(invalid(policyPath, spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  }
  const ips = spec.clusterIPs ?? [];
  for (let i = 0; i < ips.length; i++) {
    const ip = ips[i] ?? '';
    if (ip === 'None') break;
    if (i < (spec.ipFamilies ?? []).length) continue;
    const fam = familyOf(ip);
    if (fam === 'unknown' || !families.includes(fam)) errs.push(invalid(ipsPath.index(i), ips, `${fam} is not configured on this cluster`));
    else spec.ipFamilies = [...(spec.ipFamilies ?? []), fam];
  }
  if (errs.length > 0) fail(errs);
  const first = families[0] ?? 'IPv4';
  const other = (f: string): Family => (f === 'IPv4' ? 'IPv6' : 'IPv4');
  if (spec.clusterIP === 'None' && selectorless) {
    // Headless without selector may name both families even on a single-stack cluster.
    if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = [first];
    const fams = spec.ipFamilies ?? [];
    if (fams.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') spec.ipFamilies = [...fams, other(fams[0] ?? first)];
    return;
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && families.length < 2) {
    errs.push(invalid(policyPath, spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  }
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!families.includes(f as Family)) errs.push(invalid(familiesPath.index(i), f, 'not configured on this cluster'));
  });
  if (errs.length > 0) fail(errs);
  if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = [first];
  const fams = spec.ipFamilies ?? [];
  if (spec.ipFamilyPolicy !== 'SingleStack' && fams.length === 1 && families.length === 2) spec.ipFamilies = [...fams, other(fams[0] ?? first)];
}

/** ValidateServiceClusterIPsRelatedFields: clusterIP(s), ipFamilies and ipFamilyPolicy, on create and update. */
export function validateClusterIPsRelatedFields(svc: RO<Service>, old: RO<Service> | undefined): FieldError[] {
  const spec = svc.spec;
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  if ((spec.clusterIP ?? '') !== '') {
    if (ips.length === 0) errs.push(required(ipsPath, ''));
    else if (ips[0] !== spec.clusterIP) errs.push(invalid(ipsPath, ips, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalid(ipsPath, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!FAMILIES.includes(f)) errs.push(notSupported(familiesPath.index(i), f, FAMILIES));
    if (seen.has(f)) errs.push(duplicate(familiesPath.index(i), f));
    seen.add(f);
  });
  if (spec.ipFamilyPolicy !== undefined && !POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(notSupported(policyPath, spec.ipFamilyPolicy, POLICIES));
  }
  let badIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) { badIPs = true; errs.push(invalid(ipsPath, ips, "'None' must be the first and only value")); }
      return;
    }
    const e = isValidIPForLegacyField(ipsPath.index(i), ip, STRICT_IP, old?.spec.clusterIPs ?? []);
    if (e.length > 0) badIPs = true;
    errs.push(...e);
  });
  if (ips.length > 2) errs.push(invalid(ipsPath, ips, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (ips.length > 1 && !(ips.length === 2 && familyOf(ips[0] ?? '') !== familyOf(ips[1] ?? ''))) {
    errs.push(invalid(ipsPath, ips, 'may specify no more than one IP for each IP family'));
  }
  const fams = spec.ipFamilies ?? [];
  if (!isHeadless(svc) && ips.length > 0 && fams.length > 0) {
    for (let i = 0; i < ips.length && i < fams.length; i++) {
      const ip = ips[i] ?? '';
      const v6 = familyOf(ip) === 'IPv6';
      if (fams[i] === 'IPv4' && v6) errs.push(invalid(ipsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fams[i] === 'IPv6' && !v6) errs.push(invalid(ipsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    }
  }
  return errs;
}

/** The primary cluster IP and family may not change; secondaries go only with SingleStack. */
export function validateUpgradeDowngrade(svc: RO<Service>, old: RO<Service>): FieldError[] {
  const errs: FieldError[] = [];
  if (svc.spec.type === 'ExternalName' || old.spec.type === 'ExternalName') return errs;
  const ips = svc.spec.clusterIPs ?? [];
  const oldIPs = old.spec.clusterIPs ?? [];
  const policyIsSingle = svc.spec.ipFamilyPolicy === 'SingleStack';
  // A nil *IPFamilyPolicy prints as null.
  const policyValue = svc.spec.ipFamilyPolicy ?? null;
  if (!(isHeadless(old) && isHeadless(svc))) {
    if (oldIPs.length === ips.length) {
      oldIPs.forEach((ip, i) => { if (ip !== ips[i]) errs.push(invalid(ipsPath.index(i), ips, 'may not change once set')); });
    } else if (oldIPs.length > ips.length) {
      if (ips.length === 0) errs.push(invalid(ipsPath.index(0), ips, 'primary clusterIP can not be unset'));
      if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(invalid(ipsPath.index(0), ips, 'may not change once set'));
      if (ips.length === 1 && !policyIsSingle) errs.push(invalid(policyPath, policyValue, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
      errs.push(invalid(ipsPath.index(0), ips, 'may not change once set'));
    }
  }
  if (isHeadless(old) || isHeadless(svc)) return errs;
  const fams = svc.spec.ipFamilies ?? [];
  const oldFams = old.spec.ipFamilies ?? [];
  if (oldFams.length === fams.length) {
    oldFams.forEach((f, i) => { if (f !== fams[i]) errs.push(invalid(familiesPath.index(0), fams, 'may not change once set')); });
  } else if (oldFams.length > fams.length) {
    if (ips.length === 0) errs.push(invalid(familiesPath.index(0), fams, 'primary ipFamily can not be unset'));
    if (fams.length > 0 && fams[0] !== oldFams[0]) errs.push(invalid(familiesPath.index(0), ips, 'may not change once set'));
    if (fams.length === 1 && !policyIsSingle) errs.push(invalid(policyPath, policyValue, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
  } else if (oldFams.length > 0 && fams.length > 0 && fams[0] !== oldFams[0]) {
    errs.push(invalid(familiesPath.index(0), ips, 'may not change once set'));
  }
  return errs;
}
