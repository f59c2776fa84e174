// The node status checks of ValidateNode and ValidateNodeUpdate (pkg/apis/core/validation):
// capacity and allocatable quantities (ValidateNodeResources) and, on update, no address twice.
import { duplicate, fieldPath, GoSyntax, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { fractionalBytes, parseQuantity } from '../v1/quantity.ts';
import type { Node } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

/** Counted in whole objects (helper.integerResources). */
const INTEGER_RESOURCES = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** IsExtendedResourceName: a qualified, non-native name that stays qualified as a quota name. */
const isExtendedResource = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/** ValidateResourceQuantityValue: not negative; integer resources whole. */
function validateQuantityValue(name: string, q: string | number, field: string): FieldError[] {
  const v = parseQuantity(q);
  if (v === undefined) return [];
  const p = fieldPath('status', field, name);
  const errs: FieldError[] = [];
  if (v < 0) errs.push(invalid(p, String(q), 'must be greater than or equal to 0'));
  // kube shows the canonical form of a fraction ("0.5" is "500m").
  if ((INTEGER_RESOURCES.has(name) || isExtendedResource(name)) && !Number.isInteger(v)) errs.push(invalid(p, fractionalBytes(q) ?? String(q), 'must be an integer'));
  return errs;
}

export function validateNodeResources(node: RO<Node>): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['capacity', 'allocatable'] as const) {
    for (const [k, q] of Object.entries(node.status?.[field] ?? {})) errs.push(...validateQuantityValue(k, q, field));
  }
  return errs;
}

/** The same address (type and value) may appear once; kube shows the struct as JSON with Go's field names. */
export function validateNodeAddresses(node: RO<Node>): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (node.status?.addresses ?? []).forEach((a, i) => {
    const key = JSON.stringify({ Type: a.type, Address: a.address });
    if (seen.has(key)) errs.push(duplicate(fieldPath('status', 'addresses').index(i), new GoSyntax(key)));
    seen.add(key);
  });
  return errs;
}
