// strategicpatch.MergingMapsHaveConflicts: whether two patches touch the same keys differently.
// Used by the 3-way patch when overwrite is off.
import { DIRECTIVE_MARKER, MERGE_DIRECTIVE, REPLACE_DIRECTIVE, RETAIN_KEYS_DIRECTIVE, extractRetainKeysPatchStrategy } from './directives.ts';
import { otherError } from './errors.ts';
import { deduplicateScalars, deepEqual, goFormat, goScalarEqual, isJsonObject, sortScalars, type JsonObject, type JsonValue } from './json-value.ts';
import { scalarKey, sliceElementType } from './order.ts';
import type { LookupPatchMeta, PatchMeta } from './patch-meta.ts';

export function mergingMapsHaveConflicts(left: JsonObject, right: JsonObject, schema: LookupPatchMeta): boolean {
  return fieldsHaveConflicts(left, right, schema, '', '');
}

function fieldsHaveConflicts(left: JsonValue, right: JsonValue, schema: LookupPatchMeta | undefined,
  strategy: string, mergeKey: string): boolean {
  if (isJsonObject(left)) {
    if (!isJsonObject(right)) return true;
    const l = Object.hasOwn(left, DIRECTIVE_MARKER);
    const r = Object.hasOwn(right, DIRECTIVE_MARKER);
    // A directive acts on the whole map: one side with it and one without, or two different ones, conflict.
    if ((l || r) && (l !== r || !goScalarEqual(left[DIRECTIVE_MARKER], right[DIRECTIVE_MARKER]))) return true;
    if (strategy === REPLACE_DIRECTIVE) return false;
    return mapsHaveConflicts(left, right, schema);
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right)) return true;
    return slicesHaveConflicts(left, right, schema, strategy, mergeKey);
  }
  return !deepEqual(left, right);
}

function mapsHaveConflicts(left: JsonObject, right: JsonObject, schema: LookupPatchMeta | undefined): boolean {
  for (const [key, lv] of Object.entries(left)) {
    if (key === DIRECTIVE_MARKER || key === RETAIN_KEYS_DIRECTIVE || !Object.hasOwn(right, key)) continue;
    let sub: LookupPatchMeta | undefined;
    let meta: PatchMeta = { patchStrategies: [], patchMergeKey: '' };
    let strategy = '';
    if (schema !== undefined && (Array.isArray(lv) || isJsonObject(lv))) {
      const found = Array.isArray(lv) ? schema.lookupPatchMetadataForSlice(key) : schema.lookupPatchMetadataForStruct(key);
      sub = found.schema;
      meta = found.meta;
      strategy = extractRetainKeysPatchStrategy(meta.patchStrategies).strategy;
    }
    if (fieldsHaveConflicts(lv, right[key] ?? null, sub, strategy, meta.patchMergeKey)) return true;
  }
  return false;
}

function slicesHaveConflicts(left: JsonValue[], right: JsonValue[], schema: LookupPatchMeta | undefined,
  strategy: string, mergeKey: string): boolean {
  const kind = sliceElementType(left, right);
  if (strategy === MERGE_DIRECTIVE) {
    // Merging lists of scalars cannot conflict; lists of maps are compared item by merge key.
    if (kind !== 'map') return false;
    const l = byMergeKey(left, mergeKey);
    const r = byMergeKey(right, mergeKey);
    for (const [k, lv] of l) {
      const rv = r.get(k);
      if (rv !== undefined && fieldsHaveConflicts(lv, rv, schema, '', '')) return true;
    }
    return false;
  }
  if (left.length !== right.length) return true;
  const [l, r] = kind === 'map'
    ? [left, right]
    : [sortScalars(deduplicateScalars(left)), sortScalars(deduplicateScalars(right))];
  return l.some((v, i) => fieldsHaveConflicts(v, r[i] ?? null, schema, '', ''));
}

function byMergeKey(list: JsonValue[], mergeKey: string): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const v of list) {
    if (!isJsonObject(v)) throw otherError(`invalid element type in merging list:${goFormat(list)}`);
    if (!Object.hasOwn(v, mergeKey)) throw otherError(`cannot find merge key \`${mergeKey}\` in merging list element:${goFormat(v)}`);
    out.set(scalarKey(v[mergeKey]), v);
  }
  return out;
}
