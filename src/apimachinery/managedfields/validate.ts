// structured-merge-diff's typed validation (typed/validate.go), run on an applied configuration
// before it is merged: keys a closed schema map does not declare, list items whose key cannot be
// built, and duplicate items of associative lists. Values of the wrong shape are left to
// decoding, as kapi does not reproduce Go's renderings of them.
import { isJsonObject } from '../patch/json-value.ts';
import type { JsonValue } from '../patch/json-value.ts';
import { elementToString, fieldElement, indexElement, serializeElement } from './path-element.ts';
import { atomOf } from './type-ref.ts';
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

function walk(errs: ValidationError[], path: string, t: TypeRef, v: JsonValue): void {
  if (t.kind !== 'schema' || v === null) return;
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
