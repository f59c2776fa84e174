// structured-merge-diff's typed validation (typed/validate.go), run on an applied configuration
// before it is merged: values of the wrong shape for their schema (a string where a map is, a
// number where a string is...), keys a closed schema map does not declare, list items whose key
// cannot be built, and duplicate items of associative lists.
// Counterpart of sigs.k8s.io/structured-merge-diff/v6/typed/validate.go.
import { isJsonObject } from '../patch/json-value.ts';
import type { JsonValue } from '../patch/json-value.ts';
import { elementToString, fieldElement, indexElement, serializeElement } from './path-element.ts';
import { atomOf } from './type-ref.ts';
import { formatValue, formatValueGoSyntax, goTypeOf } from './value-format.ts';
import type { TypeRef } from './type-ref.ts';
import { itemElement, TypedValueError } from './typed.ts';
import type { ListAtom } from './typed.ts';

/** One typed.ValidationError: the printed path ("" at the root) and the message. */
export interface ValidationError { readonly path: string; readonly message: string }

/** typed.ValidationErrors.Error(): one error alone, else "errors:" and one indented line each. */
export function validationErrorsMessage(errs: readonly ValidationError[]): string {
  const one = (e: ValidationError): string => (e.path === '' ? e.message : `${e.path}: ${e.message}`);
  if (errs.length === 1 && errs[0] !== undefined) return one(errs[0]);
  return ['errors:', ...errs.map((e) => `  ${one(e)}`)].join('\n');
}

const NOT_DECLARED = 'field not declared in schema';

/**
 * Validates a value against its type as TypedValue.Validate does without AllowDuplicates.
 * Returns the errors in walk order (kube's map order is random; kapi's is the document's).
 */
export function validateTyped(value: JsonValue, t: TypeRef): ValidationError[] {
  const errs: ValidationError[] = [];
  walk(errs, '', t, value);
  return errs;
}

/** validateScalar, and the map and list checks of doMap and doList: the first shape error of v, if any. */
function shapeError(t: Extract<TypeRef, { kind: 'schema' }>, v: JsonValue): string | undefined {
  const n = t.node;
  // Types that decode themselves (IntOrString, Time, MicroTime) take any value here; their
  // decoding fails later, after the merge.
  if (n['x-kubernetes-int-or-string'] === true || n.format === 'int-or-string' || n.format === 'date-time') return undefined;
  switch (n.type) {
    case 'object': return isJsonObject(v) ? undefined : `expected map, got ${formatValue(v)}`;
    case 'array': return Array.isArray(v) ? undefined : `expected list, got ${formatValue(v)}`;
    case 'string': return typeof v === 'string' ? undefined : `expected string, got ${formatValueGoSyntax(v)}`;
    case 'integer': case 'number': return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeOf(v)}`;
    case 'boolean': return typeof v === 'boolean' ? undefined : `expected boolean, got ${formatValue(v)}`;
    default: return undefined;
  }
}

function walk(errs: ValidationError[], path: string, t: TypeRef, v: JsonValue): void {
  if (t.kind === 'untyped' && t.scalarOnly === true && (Array.isArray(v) || isJsonObject(v))) {
    errs.push({ path, message: `expected any scalar, got ${formatValue(v)}` });
    return;
  }
  if (t.kind !== 'schema' || v === null) return;
  const shape = shapeError(t, v);
  if (shape !== undefined) {
    errs.push({ path, message: shape });
    return;
  }
  const a = atomOf(t, v);
  if (a.kind === 'map') {
    if (!isJsonObject(v)) return;
    for (const [key, child] of Object.entries(v)) {
      const p = path + elementToString(fieldElement(key));
      if (!a.isField(key) && a.closed) {
        // kube stops at the first undeclared key of a map.
        errs.push({ path: p, message: NOT_DECLARED });
        return;
      }
      walk(errs, p, a.field(key), child);
    }
    return;
  }
  if (a.kind === 'list' && Array.isArray(v)) walkItems(errs, path, a, v);
}

function walkItems(errs: ValidationError[], path: string, a: ListAtom, items: JsonValue[]): void {
  const associative = !a.atomic;
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as JsonValue;
    let pe = indexElement(i);
    if (associative) {
      try {
        pe = itemElement([], a, item);
      } catch (err) {
        if (!(err instanceof TypedValueError)) throw err;
        // Without its key the item cannot be addressed: kube gives up on the whole list.
        errs.push({ path, message: `element ${i}: ${err.detail}` });
        return;
      }
      const k = serializeElement(pe);
      if (seen.has(k)) errs.push({ path, message: `duplicate entries for key ${elementToString(pe)}` });
      seen.add(k);
    }
    walk(errs, path + elementToString(pe), a.elem, item);
  }
}
