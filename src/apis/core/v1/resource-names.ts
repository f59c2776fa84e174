// Resource names and quantities as kube's core helpers see them (pkg/apis/core/helper): which
// names are standard for containers, quotas and limit ranges, which count whole objects, and the
// shared checks built on them (validateResourceName, validateContainerResourceName,
// ValidateResourceQuotaResourceName, ValidateResourceQuantityValue). Quantities are compared
// exactly and shown in kube's canonical form ("1.5" is "1500m", "1024Mi" is "1Gi").
import { invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import { formatQuantity, parseQuantity, type Quantity } from '../../../apimachinery/resource/quantity.ts';

const IS_NEGATIVE_ERROR = 'must be greater than or equal to 0';
const IS_NOT_INTEGER_ERROR = 'must be an integer';
const INVALID_QUOTA_RESOURCE = 'must be a standard resource for quota';

const STANDARD_CONTAINER = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_QUOTA = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage',
  'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services',
  'replicationcontrollers', 'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers']);
const STANDARD = new Set([...STANDARD_QUOTA, 'storage']);
const INTEGER = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers']);

export const isHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-');
const isQuotaHugePageResourceName = (name: string): boolean => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
export const isExtendedResourceName = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
export const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);
export const isStandardQuotaResourceName = (name: string): boolean => STANDARD_QUOTA.has(name) || isQuotaHugePageResourceName(name);
const isStandardResourceName = (name: string): boolean => STANDARD.has(name) || isQuotaHugePageResourceName(name);
const isIntegerResourceName = (name: string): boolean => INTEGER.has(name) || isExtendedResourceName(name);

/** validateResourceName: a qualified name; an unprefixed one must be a standard resource. */
export function validateResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(p, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !isStandardResourceName(name)) return [invalid(p, name, 'must be a standard resource type or fully qualified')];
  return [];
}

/** validateContainerResourceName: also a resource containers may ask for (the name checks add up). */
export function validateContainerResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(name, p);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER.has(name) && !isHugePageResourceName(name)) errs.push(invalid(p, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(p, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuotaResourceName. */
export function validateQuotaResourceName(name: string, p: FieldPath): FieldError[] {
  const errs = validateResourceName(name, p);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(invalid(p, name, INVALID_QUOTA_RESOURCE));
  return errs;
}

/** The quantity, exactly (nano-units); undefined when it does not parse. */
export function quantityOf(q: string | number | undefined): Quantity | undefined {
  return q === undefined ? undefined : parseQuantity(q);
}

/** Quantity.String(): kube's canonical text of a quantity; unparsable text is shown as given. */
export function canonicalQuantity(q: string | number): string {
  const v = parseQuantity(q);
  return v === undefined ? String(q) : formatQuantity(v);
}

/** ValidateResourceQuantityValue: not negative, and whole for the resources counted in objects. */
export function validateResourceQuantityValue(name: string, q: string | number, p: FieldPath): FieldError[] {
  const v = parseQuantity(q);
  if (v === undefined) return [];
  const errs: FieldError[] = [];
  const shown = formatQuantity(v);
  if (v.nano < 0n) errs.push(invalid(p, shown, IS_NEGATIVE_ERROR));
  // MilliValue() rounds up to milli-units before the whole-number check
  const milli = v.nano >= 0n ? (v.nano + 999_999n) / 1_000_000n : -((-v.nano) / 1_000_000n);
  if (isIntegerResourceName(name) && milli % 1000n !== 0n) errs.push(invalid(p, shown, IS_NOT_INTEGER_ERROR));
  return errs;
}

/**
 * SetDefaults_ResourceList: every value of a core/v1 ResourceList is rounded up to milli-units
 * ("1n" is "1m"); a value with no finer digits keeps its text.
 */
export function roundUpResourceList(list: Record<string, string | number> | undefined | null): void {
  if (list === undefined || list === null) return;
  for (const [k, v] of Object.entries(list)) {
    const q = parseQuantity(v);
    if (q === undefined || q.nano % MILLI === 0n) continue;
    // away from zero, as inf.Dec's RoundUp
    const abs = q.nano < 0n ? -q.nano : q.nano;
    const up = abs + MILLI - (abs % MILLI);
    list[k] = formatQuantity({ nano: q.nano < 0n ? -up : up, format: q.format });
  }
}
const MILLI = 1_000_000n;
