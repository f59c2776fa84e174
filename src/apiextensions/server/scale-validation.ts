// The checks kube's custom resource validator adds for a CRD with a scale subresource: the
// replicas at specReplicasPath and statusReplicasPath must be int32-sized non-negative integers,
// and the labelSelectorPath must hold a string. They run on every create and update of the
// custom resource (scale updates included), after its schema validation; the field path is the
// CRD's JSONPath as written (".spec.replicas").
// Counterpart of ValidateScaleSpec/ValidateScaleStatus in
// k8s.io/apiextensions-apiserver/pkg/registry/customresource/validator.go.
import { invalid, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { CustomResourceSubresourceScale } from '../v1/types.ts';

const MAX_INT32 = 2147483647;

/** Go's %T of a decoded JSON value, as unstructured content holds it. */
function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return v === null ? '<nil>' : 'map[string]interface {}';
}

/** Go's %v of a decoded JSON value. */
function goValue(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${goValue(o[k])}`).join(' ')}]`;
  }
  return String(v as string | number | boolean);
}

type Lookup = { found: false } | { found: true; value: unknown } | { error: string };

/** unstructured's nested accessor: a missing field is not found, a non-object on the way is an error. */
function nested(obj: unknown, fields: readonly string[]): Lookup {
  let val = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { found: false };
    if (typeof val !== 'object' || Array.isArray(val)) {
      return { error: `.${fields.slice(0, i + 1).join('.')} accessor error: ${goValue(val)} is of the type ${goType(val)}, expected map[string]interface {}` };
    }
    const m = val as Record<string, unknown>;
    if (!(fields[i]! in m)) return { found: false };
    val = m[fields[i]!];
  }
  return { found: true, value: val };
}

function fieldsOf(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function replicasErrors(obj: unknown, path: string): FieldError[] {
  const fields = fieldsOf(path);
  const got = nested(obj, fields);
  if ('error' in got) return [invalid(path, 0, got.error)];
  if (!got.found) return [];
  const v = got.value;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    return [invalid(path, 0, `.${fields.join('.')} accessor error: ${goValue(v)} is of the type ${goType(v)}, expected int64`)];
  }
  if (v < 0) return [invalid(path, v, 'should be a non-negative integer')];
  if (v > MAX_INT32) return [invalid(path, v, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/** The spec replicas check (create, update and scale updates). */
export function validateScaleSpec(obj: unknown, scale: DeepReadonly<CustomResourceSubresourceScale> | undefined): FieldError[] {
  return scale === undefined ? [] : replicasErrors(obj, scale.specReplicasPath);
}

/** The status replicas and label selector checks (create, update and status updates). */
export function validateScaleStatus(obj: unknown, scale: DeepReadonly<CustomResourceSubresourceScale> | undefined): FieldError[] {
  if (scale === undefined) return [];
  const errs = replicasErrors(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const fields = fieldsOf(scale.labelSelectorPath);
    const got = nested(obj, fields);
    if ('error' in got) errs.push(invalid(scale.labelSelectorPath, '', got.error));
    else if (got.found && typeof got.value !== 'string') {
      errs.push(invalid(scale.labelSelectorPath, '',
        `.${fields.join('.')} accessor error: ${goValue(got.value)} is of the type ${goType(got.value)}, expected string`));
    }
  }
  return errs;
}
