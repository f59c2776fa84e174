// Computing strategic merge patches (strategicpatch's diffMaps and friends): the patch that turns
// one document into another, with delete directives, parallel lists and $retainKeys.
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (diffMaps).
import {
  DELETE_DIRECTIVE, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, MERGE_DIRECTIVE, REPLACE_DIRECTIVE,
  RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX, extractRetainKeysPatchStrategy,
} from './directives.ts';
import { errBadArgType, errNoMergeKey, otherError } from './errors.ts';
import {
  compareGoStrings, deduplicateScalars, deepEqual, goFormat, goKind, isJsonObject, setKey, sortScalars,
  type JsonObject, type JsonValue,
} from './json-value.ts';
import { mergeKeyValueEqual, normalizeSliceOrder, sliceElementType } from './order.ts';
import type { LookupPatchMeta } from './patch-meta.ts';

export interface DiffOptions {
  /** Emit `$setElementOrder/<list>` for merging lists. */
  readonly setElementOrder?: boolean;
  readonly ignoreChangesAndAdditions?: boolean;
  readonly ignoreDeletions?: boolean;
  /** Emit `$retainKeys` (set from the field's retainKeys strategy while descending). */
  readonly buildRetainKeysDirective?: boolean;
}

/** The patch that yields `modified` from `original`. Sorts primitive lists of `original` in place, as kube does. */
export function diffMaps(original: JsonObject, modified: JsonObject, schema: LookupPatchMeta, opts: DiffOptions): JsonObject {
  const patch: JsonObject = {};
  const retainKeys: JsonValue[] = [];
  for (const [key, modifiedValue] of Object.entries(modified)) {
    if (opts.buildRetainKeysDirective === true && modifiedValue !== null) retainKeys.push(key);
    if (!Object.hasOwn(original, key)) {
      if (opts.ignoreChangesAndAdditions !== true) setKey(patch, key, modifiedValue);
      continue;
    }
    const originalValue = original[key] ?? null;
    if (key === DIRECTIVE_MARKER) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') {
        throw otherError(`invalid value for special key: ${DIRECTIVE_MARKER}`);
      }
      if (originalValue !== modifiedValue) patch[DIRECTIVE_MARKER] = modifiedValue;
      continue;
    }
    if (goKind(originalValue) !== goKind(modifiedValue)) {
      if (opts.ignoreChangesAndAdditions !== true) setKey(patch, key, modifiedValue);
      continue;
    }
    if (isJsonObject(originalValue) && isJsonObject(modifiedValue)) {
      handleMapDiff(key, originalValue, modifiedValue, patch, schema, opts);
    } else if (Array.isArray(originalValue) && Array.isArray(modifiedValue)) {
      handleSliceDiff(key, originalValue, modifiedValue, patch, schema, opts);
    } else if (opts.ignoreChangesAndAdditions !== true && !deepEqual(originalValue, modifiedValue)) {
      setKey(patch, key, modifiedValue);
    }
  }
  if (opts.ignoreDeletions !== true) {
    for (const key of Object.keys(original)) if (!Object.hasOwn(modified, key)) setKey(patch, key, null);
  }
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified))) {
    patch[RETAIN_KEYS_DIRECTIVE] = sortScalars(retainKeys);
  }
  return patch;
}

function hasAdditionalNewField(original: JsonObject, modified: JsonObject): boolean {
  return Object.entries(original).some(([k, v]) => v !== null && !Object.hasOwn(modified, k));
}

function handleMapDiff(key: string, original: JsonObject, modified: JsonObject, patch: JsonObject,
  schema: LookupPatchMeta, opts: DiffOptions): void {
  let lookup;
  try {
    lookup = schema.lookupPatchMetadataForStruct(key);
  } catch (err) {
    // Without metadata, identical values still need no patch.
    if (deepEqual(original, modified)) return;
    throw err;
  }
  const { retainKeys, strategy } = extractRetainKeysPatchStrategy(lookup.meta.patchStrategies);
  if (strategy === REPLACE_DIRECTIVE) {
    if (opts.ignoreChangesAndAdditions !== true) setKey(patch, key, modified);
    return;
  }
  const value = diffMaps(original, modified, lookup.schema, { ...opts, buildRetainKeysDirective: retainKeys });
  if (Object.keys(value).length > 0) setKey(patch, key, value);
}

function handleSliceDiff(key: string, original: JsonValue[], modified: JsonValue[], patch: JsonObject,
  schema: LookupPatchMeta, opts: DiffOptions): void {
  let lookup;
  try {
    lookup = schema.lookupPatchMetadataForSlice(key);
  } catch (err) {
    if (deepEqual(original, modified)) return;
    throw err;
  }
  const { retainKeys, strategy } = extractRetainKeysPatchStrategy(lookup.meta.patchStrategies);
  if (strategy !== MERGE_DIRECTIVE) {
    if (opts.ignoreChangesAndAdditions !== true && !deepEqual(original, modified)) setKey(patch, key, modified);
    return;
  }
  const { add, del, order } = diffLists(original, modified, lookup.schema, lookup.meta.patchMergeKey,
    { ...opts, buildRetainKeysDirective: retainKeys });
  if (add.length > 0) setKey(patch, key, add);
  if (del.length > 0) patch[`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/${key}`] = del;
  if (order.length > 0) patch[`${SET_ELEMENT_ORDER_PREFIX}/${key}`] = order;
}

interface ListDiff { add: JsonValue[]; del: JsonValue[]; order: JsonValue[] }

function diffLists(original: JsonValue[], modified: JsonValue[], schema: LookupPatchMeta, mergeKey: string,
  opts: DiffOptions): ListDiff {
  if (original.length === 0) {
    if (modified.length === 0 || opts.ignoreChangesAndAdditions === true) return { add: [], del: [], order: [] };
    return { add: modified, del: [], order: [] };
  }
  const kind = sliceElementType(original, modified);
  if (kind === 'map') {
    const { patch, deletions } = diffListsOfMaps(original, modified, schema, mergeKey, opts);
    const add = [...normalizeSliceOrder(patch, modified, mergeKey, kind), ...deletions];
    const orderSame = isOrderSame(original, modified, mergeKey);
    const changed = (opts.ignoreChangesAndAdditions !== true && (add.length > 0 || !orderSame))
      || (opts.ignoreDeletions !== true && add.length > 0);
    const order = opts.setElementOrder === true && changed
      ? modified.map((v) => ({ [mergeKey]: (v as JsonObject)[mergeKey] ?? null }))
      : [];
    return { add, del: [], order };
  }
  const { add, del } = diffListsOfScalars(original, modified, opts);
  const sortedAdd = normalizeSliceOrder(add, modified, mergeKey, kind);
  const changed = (opts.ignoreDeletions !== true && del.length > 0)
    || (opts.ignoreChangesAndAdditions !== true && !deepEqual(original, modified));
  return { add: sortedAdd, del, order: opts.setElementOrder === true && changed ? modified : [] };
}

function isOrderSame(original: JsonValue[], modified: JsonValue[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  return modified.every((m, i) => mergeKeyValueEqual(original[i] ?? null, m, mergeKey));
}

/** Sorts in place (kube sorts the original document's list, which later comparisons then see). */
function sortInPlace(list: JsonValue[]): JsonValue[] {
  const sorted = sortScalars(list);
  sorted.forEach((v, i) => { list[i] = v; });
  return list;
}

function diffListsOfScalars(original: JsonValue[], modified: JsonValue[], opts: DiffOptions): { add: JsonValue[]; del: JsonValue[] } {
  const o = sortInPlace(original);
  const m = sortScalars(modified);
  const add: JsonValue[] = [];
  const del: JsonValue[] = [];
  let oi = 0;
  let mi = 0;
  while (oi < o.length || mi < m.length) {
    const ov = o[oi];
    const mv = m[mi];
    const cmp = ov === undefined ? 1 : mv === undefined ? -1 : compareGoStrings(goFormat(ov), goFormat(mv));
    if (cmp === 0) {
      oi++;
      mi++;
    } else if (cmp < 0) {
      if (opts.ignoreDeletions !== true) del.push(ov ?? null);
      oi++;
    } else {
      if (opts.ignoreChangesAndAdditions !== true) add.push(mv ?? null);
      mi++;
    }
  }
  return { add, del: deduplicateScalars(del) };
}

function sortByMergeKey(list: JsonValue[], mergeKey: string): JsonObject[] {
  if (list.length === 0) return [];
  const kind = sliceElementType(list);
  if (kind !== 'map') throw otherError(`expected a list of maps, but got ${kind}`);
  return (list as JsonObject[])
    .map((m, i) => ({ m, i, t: goFormat(m[mergeKey]) }))
    .sort((a, b) => compareGoStrings(a.t, b.t) || a.i - b.i)
    .map((e) => e.m);
}

function mergeKeyOf(m: JsonValue | undefined, mergeKey: string): JsonValue {
  if (!isJsonObject(m)) throw errBadArgType('map[string]interface {}', m);
  if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
  return m[mergeKey] ?? null;
}

function diffListsOfMaps(original: JsonValue[], modified: JsonValue[], schema: LookupPatchMeta, mergeKey: string,
  opts: DiffOptions): { patch: JsonValue[]; deletions: JsonValue[] } {
  const patch: JsonValue[] = [];
  const deletions: JsonValue[] = [];
  const o = sortByMergeKey(original, mergeKey);
  const m = sortByMergeKey(modified, mergeKey);
  let oi = 0;
  let mi = 0;
  while (oi < o.length || mi < m.length) {
    const oe = o[oi];
    const me = m[mi];
    const ok = oe === undefined ? undefined : mergeKeyOf(oe, mergeKey);
    const mk = me === undefined ? undefined : mergeKeyOf(me, mergeKey);
    const cmp = oe === undefined ? 1 : me === undefined ? -1 : compareGoStrings(goFormat(ok), goFormat(mk));
    if (cmp === 0 && oe !== undefined && me !== undefined) {
      const value = diffMaps(oe, me, schema, opts);
      if (Object.keys(value).length > 0) {
        value[mergeKey] = mk ?? null;
        patch.push(value);
      }
      oi++;
      mi++;
    } else if (cmp > 0) {
      if (opts.ignoreChangesAndAdditions !== true && me !== undefined) patch.push(me);
      mi++;
    } else {
      if (opts.ignoreDeletions !== true) deletions.push({ [mergeKey]: ok ?? null, [DIRECTIVE_MARKER]: DELETE_DIRECTIVE });
      oi++;
    }
  }
  return { patch, deletions };
}

