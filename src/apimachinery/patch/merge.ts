// Applying a strategic merge patch to a map (strategicpatch's mergeMap and friends). Both
// arguments are mutated; callers hand in copies they own.
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (mergeMap).
import {
  DELETE_DIRECTIVE, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, MERGE_DIRECTIVE, REPLACE_DIRECTIVE,
  RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX, containsDirectiveMarker, discardNullValuesFromPatch,
  extractKey, extractRetainKeysPatchStrategy, removeDirectives, setOrDelete,
} from './directives.ts';
import { errBadArgType, errBadPatchType, errNoMergeKey, otherError, sentinel } from './errors.ts';
import { deepEqual, deduplicateScalars, eqKey, goFormat, goKind, goScalarEqual, isJsonObject, setKey, type JsonObject, type JsonValue } from './json-value.ts';
import {
  extractToDeleteItems, findMapInSliceBasedOnKeyValue, mergeKeyValueEqual, normalizeElementOrder,
  partitionMapsByPresentInList, partitionPrimitivesByPresentInList, scalarKey, sliceElementType,
} from './order.ts';
import type { LookupPatchMeta } from './patch-meta.ts';

export interface MergeOptions {
  /** Apply parallel lists ($deleteFromPrimitiveList, $retainKeys) instead of carrying them (server side). */
  readonly mergeParallelList: boolean;
  /** Drop nulls that match no field instead of keeping them (server side). */
  readonly ignoreUnmatchedNulls: boolean;
}

export const SERVER_MERGE_OPTIONS: MergeOptions = { mergeParallelList: true, ignoreUnmatchedNulls: true };

/** Merges `patch` into `original` and returns the result (which may be a new map for directives). */
export function mergeMap(original: JsonObject | undefined, patch: JsonObject, schema: LookupPatchMeta, opts: MergeOptions): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER], patch);
  const orig = original ?? {};
  applyRetainKeysDirective(orig, patch, opts);
  mergePatchIntoOriginal(orig, patch, schema, opts);

  for (const key of Object.keys(patch)) {
    const patchV = patch[key] ?? null;
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      if (!opts.mergeParallelList) {
        setKey(orig, key, patchV);
        continue;
      }
      const listKey = extractKey(key, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
      if (listKey !== '') k = listKey;
    }

    if (patchV === null) {
      delete orig[k];
      if (opts.ignoreUnmatchedNulls) continue;
    }
    if (!Object.hasOwn(orig, k)) {
      if (!isDeleteList) replaceWithPatchValue(orig, k, patchV, opts);
      continue;
    }
    const origV = orig[k] ?? null;
    if (goKind(origV) !== goKind(patchV)) {
      if (!isDeleteList) replaceWithPatchValue(orig, k, patchV, opts);
      continue;
    }
    if (isJsonObject(origV) && isJsonObject(patchV)) {
      const { schema: sub, meta } = schema.lookupPatchMetadataForStruct(k);
      const { strategy } = extractRetainKeysPatchStrategy(meta.patchStrategies);
      setKey(orig, k, strategy === REPLACE_DIRECTIVE ? patchV : mergeMap(origV, patchV, sub, opts));
    } else if (Array.isArray(origV) && Array.isArray(patchV)) {
      const { schema: sub, meta } = schema.lookupPatchMetadataForSlice(k);
      const { strategy } = extractRetainKeysPatchStrategy(meta.patchStrategies);
      setKey(orig, k, mergeSliceHandler(origV, patchV, sub, strategy, meta.patchMergeKey, isDeleteList, opts));
    } else {
      setOrDelete(orig, k, removeDirectives(patchV));
    }
  }
  return orig;
}

function replaceWithPatchValue(orig: JsonObject, k: string, patchV: JsonValue, opts: MergeOptions): void {
  if (opts.ignoreUnmatchedNulls) discardNullValuesFromPatch(patchV);
  setOrDelete(orig, k, removeDirectives(patchV));
}

/** `$patch: replace` keeps the patch's map as is; `$patch: delete` leaves an empty map. */
function handleDirectiveInMergeMap(directive: JsonValue | undefined, patch: JsonObject): JsonObject {
  if (goScalarEqual(directive, REPLACE_DIRECTIVE)) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (goScalarEqual(directive, DELETE_DIRECTIVE)) return {};
  throw errBadPatchType(directive, patch);
}

/** Clears the fields of `original` missing from `$retainKeys`, after checking the patch sets no other field. */
function applyRetainKeysDirective(original: JsonObject, patch: JsonObject, opts: MergeOptions): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retain = patch[RETAIN_KEYS_DIRECTIVE] ?? null;
  delete patch[RETAIN_KEYS_DIRECTIVE];

  if (!opts.mergeParallelList) {
    // `original` is itself a patch here (3-way diff): carry the directive over.
    if (Object.hasOwn(original, RETAIN_KEYS_DIRECTIVE)) {
      const inOriginal = original[RETAIN_KEYS_DIRECTIVE] ?? null;
      if (!deepEqual(inOriginal, retain)) {
        throw otherError(`${goFormat(inOriginal)} and ${goFormat(retain)} are not deep equal: this may happen when calculating the 3-way diff patch`);
      }
    } else {
      original[RETAIN_KEYS_DIRECTIVE] = retain;
    }
    return;
  }

  if (!Array.isArray(retain)) throw sentinel('BadPatchFormatForRetainKeys');
  const keep = new Set(retain.map(scalarKey));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!keep.has(scalarKey(k))) throw sentinel('BadPatchFormatForRetainKeys');
  }
  for (const k of Object.keys(original)) {
    if (!keep.has(scalarKey(k))) delete original[k];
  }
}

/**
 * Applies each `$setElementOrder/<list>` together with its list: merges the list, then orders
 * it by the directive (directive order > patch order > live order). Both keys leave the patch.
 */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: LookupPatchMeta, opts: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX) || !Object.hasOwn(patch, key)) continue;
    const setOrder = patch[key] ?? null;
    if (!opts.mergeParallelList) {
      if (Object.hasOwn(original, key)) {
        if (!deepEqual(original[key], setOrder)) throw sentinel('BadPatchFormatForSetElementOrderList');
      } else {
        setKey(original, key, setOrder);
      }
    }
    delete patch[key];

    if (!Array.isArray(setOrder)) throw errBadArgType('[]interface {}', setOrder);
    const listKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.hasOwn(original, listKey);
    const foundPatch = Object.hasOwn(patch, listKey);
    const originalList = original[listKey] ?? null;
    const patchList = patch[listKey] ?? null;
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType('[]interface {}', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType('[]interface {}', patchList);
    const originalValue = Array.isArray(originalList) ? originalList : [];
    const patchValue = Array.isArray(patchList) ? patchList : [];

    const { schema: sub, meta } = schema.lookupPatchMetadataForSlice(listKey);
    const { strategy } = extractRetainKeysPatchStrategy(meta.patchStrategies);
    const mergeKey = meta.patchMergeKey;
    validatePatchWithSetOrderList(patchValue, setOrder, mergeKey);

    let merged: JsonValue[];
    if (foundOriginal && !foundPatch) {
      merged = originalValue;
    } else if (!foundOriginal && foundPatch) {
      const v = removeDirectives(patchValue);
      if (!Array.isArray(v)) continue;
      merged = v;
    } else if (foundOriginal && foundPatch) {
      merged = mergeSliceHandler(originalValue, patchValue, sub, strategy, mergeKey, false, opts);
    } else {
      continue;
    }

    const { patch: patchItems, serverOnly } = mergeKey === ''
      ? partitionPrimitivesByPresentInList(merged, setOrder)
      : partitionMapsByPresentInList(merged, setOrder, mergeKey);
    const kind = sliceElementType(originalValue, patchValue);
    original[listKey] = normalizeElementOrder(patchItems, serverOnly, setOrder, originalValue, mergeKey, kind);
    delete patch[listKey];
  }
}

/** Every non-directive item of the patch list must appear in `$setElementOrder`, in the same relative order. */
function validatePatchWithSetOrderList(patchList: JsonValue[], setOrderList: JsonValue[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey === '' ? patchList : extractToDeleteItems(patchList).nonDelete;
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < setOrderList.length) {
    const item = nonDelete[p] ?? null;
    if (containsDirectiveMarker(item)) { p++; continue; }
    if (mergeKeyValueEqual(item, setOrderList[s] ?? null, mergeKey)) p++;
    s++;
  }
  if (p < nonDelete.length && s >= setOrderList.length) {
    throw otherError(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goFormat(setOrderList)}\n`);
  }
}

/** Lists with the merge strategy (or deletion lists) are merged; any other list is replaced by the patch's. */
function mergeSliceHandler(original: JsonValue[], patch: JsonValue[], schema: LookupPatchMeta, strategy: string,
  mergeKey: string, isDeleteList: boolean, opts: MergeOptions): JsonValue[] {
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, opts, isDeleteList);
  return patch;
}

function mergeSlice(original: JsonValue[], patch: JsonValue[], schema: LookupPatchMeta, mergeKey: string,
  opts: MergeOptions, isDeleteList: boolean): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  if (kind !== 'map') {
    if (opts.mergeParallelList && isDeleteList) return deleteFromSlice(original, patch);
    const merged = deduplicateScalars([...original, ...patch]);
    const { patch: patchItems, serverOnly } = partitionPrimitivesByPresentInList(merged, patch);
    return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind);
  }
  if (mergeKey === '') throw otherError(`cannot merge lists without merge key for ${schema.name()}`);
  const { merged, serverOrder, patch: plain } = mergeListOfMaps(original, patch, mergeKey, schema, opts);
  const { patch: patchItems, serverOnly } = partitionMapsByPresentInList(merged, plain, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, plain, serverOrder, mergeKey, kind);
}

/**
 * Merges a patch list into a list of maps: `$patch: delete` items remove entries by merge key,
 * `$patch: replace` makes the rest of the patch the list, other items merge into the entry with
 * the same merge key value or are appended.
 *
 * `original` plays the part of the Go slice's backing array and is updated in place the way Go's
 * in-place delete and append leave it: entries after a deleted one shift left and appended items
 * take the freed slots. kube orders a `$setElementOrder` list by that array afterwards, so the
 * caller's view of it is part of the observable behaviour.
 */
function mergeListOfMaps(original: JsonValue[], patch: JsonValue[], mergeKey: string, schema: LookupPatchMeta,
  opts: MergeOptions): { merged: JsonValue[]; serverOrder: JsonValue[]; patch: JsonValue[] } {
  const n = original.length;
  let len = n;
  const plain: JsonValue[] = [];
  let replace = false;
  for (const v of patch) {
    const m = v as JsonObject;
    if (!Object.hasOwn(m, DIRECTIVE_MARKER)) {
      plain.push(v);
      continue;
    }
    const directive = m[DIRECTIVE_MARKER];
    if (goScalarEqual(directive, DELETE_DIRECTIVE)) {
      if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      len = deleteByKey(original, len, mergeKey, m[mergeKey] ?? null);
    } else if (goScalarEqual(directive, REPLACE_DIRECTIVE)) {
      replace = true;
    } else if (goScalarEqual(directive, MERGE_DIRECTIVE)) {
      throw otherError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, m);
    }
  }
  if (replace) return { merged: plain, serverOrder: plain, patch: [] };

  const serverOrder = original.slice(0, len);
  const work = original.slice(0, len);
  // Items are found by an index of merge key values (a search per item would be quadratic);
  // the linear search stays for lists holding a non-map, whose error depends on where it is.
  const indexed = work.every(isJsonObject);
  const at = new Map<unknown, number>();
  const remember = (v: JsonValue, i: number): void => {
    if (isJsonObject(v) && Object.hasOwn(v, mergeKey) && !at.has(eqKey(v[mergeKey]))) at.set(eqKey(v[mergeKey]), i);
  };
  if (indexed) work.forEach(remember);
  for (const v of plain) {
    const m = v as JsonObject;
    if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const value = m[mergeKey] ?? null;
    const index = indexed ? at.get(eqKey(value)) : findMapInSliceBasedOnKeyValue(work, mergeKey, value)?.index;
    if (index !== undefined) {
      work[index] = mergeMap(work[index] as JsonObject, m, schema, opts);
    } else {
      if (work.length < n) original[work.length] = v;
      if (indexed) remember(v, work.length);
      work.push(v);
    }
  }
  return { merged: work, serverOrder, patch: plain };
}

/**
 * Removes from original[0, len) every map whose merge key equals value, as Go's repeated
 * in-place delete does: the rest shifts left, and the freed slots keep the last element the
 * list had (Go's backing array). One pass instead of a search and a shift per match. Returns
 * the new length.
 */
function deleteByKey(original: JsonValue[], len: number, mergeKey: string, value: JsonValue): number {
  const key = eqKey(value);
  let firstHit = -1;
  for (let i = 0; i < len; i++) {
    const v = original[i];
    if (!isJsonObject(v)) throw otherError(`value for key ${i} is not a map`);
    if (Object.hasOwn(v, mergeKey) && eqKey(v[mergeKey]) === key) { firstHit = i; break; }
  }
  if (firstHit < 0) return len;
  const last = original[len - 1] ?? null;
  let out = firstHit;
  for (let i = firstHit + 1; i < len; i++) {
    const v = original[i] as JsonValue;
    // A non-map after a hit stops Go's next search with this error.
    if (!isJsonObject(v)) throw otherError(`value for key ${out} is not a map`);
    if (Object.hasOwn(v, mergeKey) && eqKey(v[mergeKey]) === key) continue;
    original[out++] = v;
  }
  for (let i = out; i < len; i++) original[i] = last;
  return out;
}

/** `$deleteFromPrimitiveList/<list>`: removes every occurrence of the listed values. */
function deleteFromSlice(current: JsonValue[], toDelete: JsonValue[]): JsonValue[] {
  const gone = new Set(toDelete.map(scalarKey));
  return current.filter((v) => !gone.has(scalarKey(v)));
}
