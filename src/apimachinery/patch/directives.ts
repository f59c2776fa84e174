// The strategic merge patch directives ($patch, $retainKeys, $setElementOrder/<list>,
// $deleteFromPrimitiveList/<list>) and the small helpers that read or strip them.
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (directives).
import { otherError, sentinel } from './errors.ts';
import { isJsonObject, setKey, type JsonObject, type JsonValue } from './json-value.ts';

export const DIRECTIVE_MARKER = '$patch';
export const DELETE_DIRECTIVE = 'delete';
export const REPLACE_DIRECTIVE = 'replace';
export const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/**
 * Splits a field's strategies into "has retainKeys" and the other strategy ('' when none).
 * Throws for more than two strategies, or two without retainKeys.
 */
export function extractRetainKeysPatchStrategy(strategies: readonly string[]): { retainKeys: boolean; strategy: string } {
  const [a = '', b = ''] = strategies;
  switch (strategies.length) {
    case 0: return { retainKeys: false, strategy: '' };
    case 1: return a === RETAIN_KEYS_STRATEGY ? { retainKeys: true, strategy: '' } : { retainKeys: false, strategy: a };
    case 2:
      if (a === RETAIN_KEYS_STRATEGY) return { retainKeys: true, strategy: b };
      if (b === RETAIN_KEYS_STRATEGY) return { retainKeys: true, strategy: a };
      break;
    default: break;
  }
  throw otherError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

/** The list field a parallel-list key refers to ("$setElementOrder/containers" → "containers"). */
export function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw sentinel('BadPatchFormatForPrimitiveList');
    if (prefix === SET_ELEMENT_ORDER_PREFIX) throw sentinel('BadPatchFormatForSetElementOrderList');
    throw otherError(`fail to find unknown prefix "${prefix}" in ${s}\n`);
  }
  return s.slice(slash + 1);
}

export function containsDirectiveMarker(item: JsonValue | undefined): boolean {
  return isJsonObject(item) && Object.hasOwn(item, DIRECTIVE_MARKER);
}

/**
 * Drops every map carrying a `$patch` directive (and list elements that are such maps), the way
 * kube does for values that have nothing to merge into. Other directive keys stay. Mutates.
 * Returns undefined when the value itself is to be dropped.
 */
export function removeDirectives(obj: JsonValue): JsonValue | undefined {
  if (Array.isArray(obj)) {
    const res: JsonValue[] = [];
    for (const v of obj) {
      const nv = removeDirectives(v);
      if (nv !== undefined) res.push(nv);
    }
    return res;
  }
  if (isJsonObject(obj)) {
    if (Object.hasOwn(obj, DIRECTIVE_MARKER)) return undefined;
    for (const [k, v] of Object.entries(obj)) {
      const nv = removeDirectives(v);
      if (nv === undefined) delete obj[k];
      else setKey(obj, k, nv);
    }
  }
  return obj;
}

/** Removes null-valued keys at every depth (a null for a field that does not exist deletes nothing). Mutates. */
export function discardNullValuesFromPatch(v: JsonValue): void {
  if (Array.isArray(v)) {
    for (const x of v) discardNullValuesFromPatch(x);
  } else if (isJsonObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else discardNullValuesFromPatch(x);
    }
  }
}

/** Stores `value` at `key`, or deletes the key when the value was dropped. */
export function setOrDelete(m: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value === undefined) delete m[key];
  else setKey(m, key, value);
}
