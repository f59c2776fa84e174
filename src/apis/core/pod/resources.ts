// Container resources and pod overhead (validateResourceRequirements with
// validateContainerResourceName, ValidateResourceQuantityValue and the claim references).
// Counterpart of pkg/apis/core/validation/validation.go (validateResourceRequirements).
import { duplicate, forbidden, invalid, notFound, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import { parseQuantity } from '../v1/quantity.ts';
import { canonicalQuantity } from '../v1/resource-names.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodSpec } from '../v1/types.ts';
import { validatePodResourceConsistency } from './pod-resources.ts';
import { dns1123Label, obj, objects, str, type Obj } from './spec-access.ts';

const STANDARD_CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'persistentvolumeclaims',
  'configmaps', 'services.nodeports', 'services.loadbalancers', 'requests.storage']);
const QUANTITY_PATTERN = 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'';

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
const isExtended = (name: string): boolean =>
  !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** helper.IsOvercommitAllowed: native resources but huge pages may request less than their limit. */
const overcommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

/** validateContainerResourceName (also the name of an HPA's ContainerResource metric). */
export function validateContainerResourceName(name: string, p: FieldPath): FieldError[] {
  const qualified = isQualifiedName(name);
  if (qualified.length > 0) {
    // validateResourceName stops at the name errors; the container check still runs
    const errs = qualified.map((m) => invalid(p, name, m));
    if (!name.includes('/') && !STANDARD_CONTAINER.has(name) && !isHugePages(name)) errs.push(invalid(p, name, 'must be a standard resource for containers'));
    return errs;
  }
  const errs: FieldError[] = [];
  if (!name.includes('/')) {
    if (!STANDARD.has(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-')) {
      errs.push(invalid(p, name, 'must be a standard resource type or fully qualified'));
    }
    if (!STANDARD_CONTAINER.has(name) && !isHugePages(name)) errs.push(invalid(p, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(invalid(p, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

function validateQuantity(name: string, q: unknown, p: FieldPath): { value: number | undefined; errs: FieldError[] } {
  const value = typeof q === 'string' || typeof q === 'number' ? parseQuantity(q) : undefined;
  if (value === undefined) return { value, errs: [invalid(p, q, QUANTITY_PATTERN)] };
  const errs: FieldError[] = [];
  const shown = canonicalQuantity(q as string | number);
  if (value < 0) errs.push(invalid(p, shown, 'must be greater than or equal to 0'));
  if (isExtended(name) && !Number.isInteger(value)) errs.push(invalid(p, shown, 'must be an integer'));
  return { value, errs };
}

/** validateResourceQuantityHugePageValue: a whole number of pages of the resource's page size. */
function validateHugePageValue(name: string, q: unknown, value: number | undefined, p: FieldPath): FieldError[] {
  if (!isHugePages(name) || value === undefined) return [];
  const page = parseQuantity(name.slice('hugepages-'.length));
  const divisible = page !== undefined && page > 0 && Number.isInteger(page) && Math.ceil(value) % page === 0;
  const shown = canonicalQuantity(q as string | number);
  return divisible ? [] : [invalid(p, shown, `${shown} is not positive integer multiple of ${name}`)];
}

const entries = (o: Obj | undefined): [string, unknown][] => Object.entries(o ?? {});

/** validateResourceClaimNames: each claim (or claim/request) once, and named in the pod's resourceClaims. */
function validateResourceClaimNames(claims: readonly Obj[], podClaims: ReadonlySet<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  claims.forEach((c, i) => {
    const ip = p.index(i);
    const name = str(c, 'name');
    const request = str(c, 'request');
    if (name === '') { errs.push(required(ip)); return; }
    if (names.has(name)) errs.push(duplicate(ip, name));
    else {
      let key = name;
      if (request !== '') { errs.push(...dns1123Label(request, ip.child('request'))); key += `/${request}`; }
      if (names.has(key)) errs.push(duplicate(ip, key));
      else if (request === '') {
        for (const k of names) if (k.includes('/') && k.slice(0, k.indexOf('/')) === name) errs.push(duplicate(ip, name));
      }
      names.add(key);
    }
    if (!podClaims.has(name)) {
      const known = [...podClaims].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`}`;
      errs.push({ ...notFound(ip, name), detail });
    }
  });
  return errs;
}

type NameCheck = (name: string, p: FieldPath) => FieldError[];

const POD_LEVEL = ['cpu', 'hugepages-', 'memory'];

/** validatePodResourceName: cpu, memory and huge pages only. */
function validatePodResourceName(name: string, p: FieldPath): FieldError[] {
  const qualified = isQualifiedName(name);
  if (qualified.length > 0) return qualified.map((m) => invalid(p, name, m));
  if (!name.includes('/') && !STANDARD.has(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-')) {
    return [invalid(p, name, 'must be a standard resource type or fully qualified')];
  }
  return name === 'cpu' || name === 'memory' || isHugePages(name) ? [] : [notSupported(p, name, POD_LEVEL)];
}

/** ValidateContainerResourceRequirements; `claimNames` are the pod's resourceClaims (undefined for overhead). */
export function validateResourceRequirements(raw: unknown, claimNames: ReadonlySet<string>, p: FieldPath,
  checkName: NameCheck = validateContainerResourceName): FieldError[] {
  const req = obj(raw);
  if (req === undefined) return [];
  const errs: FieldError[] = [];
  const limPath = p.child('limits');
  const reqPath = p.child('requests');
  const limits = obj(req['limits']);
  const requests = obj(req['requests']);
  let cpuOrMemory = false;
  let hugePages = false;
  const limitValues = new Map<string, number | undefined>();
  for (const [name, q] of entries(limits)) {
    const kp = limPath.key(name);
    errs.push(...checkName(name, kp));
    const { value, errs: qe } = validateQuantity(name, q, kp);
    errs.push(...qe);
    limitValues.set(name, value);
    errs.push(...validateHugePageValue(name, q, value, kp));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, q] of entries(requests)) {
    const kp = reqPath.key(name);
    errs.push(...checkName(name, kp));
    const { value, errs: qe } = validateQuantity(name, q, kp);
    errs.push(...qe);
    if (limitValues.has(name)) {
      const limit = limitValues.get(name);
      const limitText = canonicalQuantity(limits?.[name] as string | number);
      const shown = canonicalQuantity(q as string | number);
      if (value !== undefined && limit !== undefined) {
        // kube reports these on `requests`, not the key
        if (value !== limit && !overcommitAllowed(name)) errs.push(invalid(reqPath, shown, `must be equal to ${name} limit of ${limitText}`));
        else if (value > limit) errs.push(invalid(reqPath, shown, `must be less than or equal to ${name} limit of ${limitText}`));
      }
    } else if (!overcommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    errs.push(...validateHugePageValue(name, q, value, kp));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(forbidden(p, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(objects(req, 'claims'), claimNames, p.child('claims')));
  return errs;
}

/** validateOverhead: the rules of container limits. */
export const validateOverhead = (overhead: unknown, p: FieldPath): FieldError[] =>
  (obj(overhead) === undefined ? [] : validateResourceRequirements({ limits: overhead }, new Set(), p));

/**
 * validatePodResources (PodLevelResources is on in v1.36): the names and quantities of
 * spec.resources, and their consistency with the containers' (pod-resources.ts).
 */
export function validatePodResources(spec: DeepReadonly<PodSpec>, os: string | undefined, claimNames: ReadonlySet<string>, p: FieldPath): FieldError[] {
  const res = obj(spec.resources);
  if (res === undefined) return [];
  if (os === 'windows') return [forbidden(p, 'may not be set for a windows pod')];
  const errs: FieldError[] = [];
  if (res['claims'] !== undefined && res['claims'] !== null) errs.push(forbidden(p.child('claims'), 'claims may not be set for Resources at pod-level'));
  errs.push(...validateResourceRequirements(res, claimNames, p, validatePodResourceName));
  errs.push(...validatePodResourceConsistency({ spec }, p));
  return errs;
}
