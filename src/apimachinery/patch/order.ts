// List element lookups and the ordering rules of strategic merge patch: patch items keep the
// patch's (or $setElementOrder's) relative order, server-only items keep the live order, and
// the two are interleaved by their positions in the live list.
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (normalizeElementOrder).
import { DELETE_DIRECTIVE, DIRECTIVE_MARKER } from './directives.ts';
import { errBadArgType, errNoMergeKey, otherError, sentinel } from './errors.ts';
import { eqKey, goFormat, goKind, goScalarEqual, isJsonObject, type GoKind, type JsonObject, type JsonValue } from './json-value.ts';
import { goSliceStable } from './stable-sort.ts';

/** The common Go type of the elements of the lists; throws for lists of lists, mixed or no elements. */
export function sliceElementType(...slices: readonly JsonValue[][]): GoKind {
  let prev: GoKind | undefined;
  for (const s of slices) {
    for (const v of s) {
      const cur = goKind(v);
      if (prev === undefined) {
        if (cur === 'nil') throw otherError('runtime error: invalid memory address or nil pointer dereference');
        if (cur === 'slice') throw sentinel('NoListOfLists');
        prev = cur;
      } else if (prev !== cur) {
        throw otherError(`list element types are not identical: ${goFormat(slices as JsonValue[][])}`);
      }
    }
  }
  if (prev === undefined) throw otherError('no elements in any of the given slices');
  return prev;
}

/**
 * Positions in `l` by merge key value for maps and by value otherwise (the first of equal
 * ones), built once: searching the list for every item would cost its length each time.
 */
export function positions(l: readonly JsonValue[], mergeKey: string, kind: GoKind): (val: JsonValue) => number {
  const get = kind === 'map'
    ? (item: JsonValue): JsonValue | undefined => (isJsonObject(item) && Object.hasOwn(item, mergeKey) ? item[mergeKey] : undefined)
    : (item: JsonValue): JsonValue | undefined => item;
  const at = new Map<unknown, number>();
  l.forEach((v, i) => {
    const k = eqKey(get(v));
    if (!at.has(k)) at.set(k, i);
  });
  return (val) => at.get(eqKey(get(val))) ?? -1;
}

function validateMergeKeyInLists(mergeKey: string, ...lists: readonly JsonValue[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw errBadArgType('map[string]interface {}', item);
      if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** Splits list items into those to keep and those carrying `$patch: delete`. */
export function extractToDeleteItems(l: readonly JsonValue[]): { nonDelete: JsonValue[]; toDelete: JsonValue[] } {
  const nonDelete: JsonValue[] = [];
  const toDelete: JsonValue[] = [];
  for (const v of l) {
    if (!isJsonObject(v)) throw errBadArgType('map[string]interface {}', v);
    if (Object.hasOwn(v, DIRECTIVE_MARKER) && goScalarEqual(v[DIRECTIVE_MARKER], DELETE_DIRECTIVE)) toDelete.push(v);
    else nonDelete.push(v);
  }
  return { nonDelete, toDelete };
}

/**
 * Sorts `toSort` by positions in `order` with Go's stable sort and its comparator, which calls
 * an item missing from `order` "less" than anything; delete directives go last.
 */
export function normalizeSliceOrder(toSort: readonly JsonValue[], order: readonly JsonValue[], mergeKey: string, kind: GoKind): JsonValue[] {
  let items = [...toSort];
  let toDelete: JsonValue[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, [...order]);
    ({ nonDelete: items, toDelete } = extractToDeleteItems(items));
  }
  const inOrder = positions(order, mergeKey, kind);
  const pos = items.map(inOrder);
  const idx = items.map((_, i) => i);
  goSliceStable(idx, (a, b) => {
    const pa = pos[a] ?? -1;
    const pb = pos[b] ?? -1;
    return pa >= 0 && pb >= 0 ? pa < pb : true;
  });
  return [...idx.map((i) => items[i] ?? null), ...toDelete];
}

/**
 * Interleaves two sorted, disjoint lists: an item of `left` goes before the current `right`
 * item when both are in `serverOrder` and it comes first there.
 */
function mergeSortedSlice(left: readonly JsonValue[], right: readonly JsonValue[], serverOrder: readonly JsonValue[],
  mergeKey: string, kind: GoKind): JsonValue[] {
  const out: JsonValue[] = [];
  const inServer = positions(serverOrder, mergeKey, kind);
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const l = left[i];
    const r = right[j];
    if (l === undefined) { out.push(r ?? null); j++; continue; }
    if (r === undefined) { out.push(l); i++; continue; }
    const li = inServer(l);
    const ri = inServer(r);
    if (li >= 0 && ri >= 0 && li < ri) { out.push(l); i++; } else { out.push(r); j++; }
  }
  return out;
}

export function normalizeElementOrder(patch: readonly JsonValue[], serverOnly: readonly JsonValue[], patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[], mergeKey: string, kind: GoKind): JsonValue[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** A key for Go map lookups of scalar interface values (type and value). */
export function scalarKey(v: JsonValue | undefined): string {
  return `${goKind(v)}:${typeof v === 'object' && v !== null ? goFormat(v) : String(v)}`;
}

export function partitionPrimitivesByPresentInList(original: readonly JsonValue[], partitionBy: readonly JsonValue[]): { patch: JsonValue[]; serverOnly: JsonValue[] } {
  const inPatch = new Set(partitionBy.map(scalarKey));
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const v of original) (inPatch.has(scalarKey(v)) ? patch : serverOnly).push(v);
  return { patch, serverOnly };
}

export function partitionMapsByPresentInList(original: readonly JsonValue[], partitionBy: readonly JsonValue[], mergeKey: string): { patch: JsonValue[]; serverOnly: JsonValue[] } {
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  const find = mapFinder(partitionBy, mergeKey);
  for (const v of original) {
    if (!isJsonObject(v)) throw errBadArgType('map[string]interface {}', v);
    if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    const found = find(v[mergeKey] ?? null) !== undefined;
    (found ? patch : serverOnly).push(v);
  }
  return { patch, serverOnly };
}

/** The first map of the list whose `key` equals `value`; throws if an element is not a map. */
export function findMapInSliceBasedOnKeyValue(m: readonly JsonValue[], key: string, value: JsonValue): { map: JsonObject; index: number } | undefined {
  for (let k = 0; k < m.length; k++) {
    const v = m[k];
    if (!isJsonObject(v)) throw otherError(`value for key ${k} is not a map`);
    if (Object.hasOwn(v, key) && goScalarEqual(v[key], value)) return { map: v, index: k };
  }
  return undefined;
}

/**
 * findMapInSliceBasedOnKeyValue over one list many times: indexed once when every element is
 * a map (a search could not throw then), else the search itself.
 */
function mapFinder(m: readonly JsonValue[], key: string): (value: JsonValue) => { map: JsonObject; index: number } | undefined {
  if (!m.every(isJsonObject)) return (value) => findMapInSliceBasedOnKeyValue(m, key, value);
  const at = new Map<unknown, number>();
  m.forEach((v, i) => {
    if (!Object.hasOwn(v as JsonObject, key)) return;
    const k = eqKey((v as JsonObject)[key]);
    if (!at.has(k)) at.set(k, i);
  });
  return (value) => {
    const i = at.get(eqKey(value));
    return i === undefined ? undefined : { map: m[i] as JsonObject, index: i };
  };
}

/** Whether two list items have the same merge key value (or are equal scalars when there is no merge key). */
export function mergeKeyValueEqual(left: JsonValue, right: JsonValue, mergeKey: string): boolean {
  if (mergeKey === '') return goScalarEqual(left, right);
  if (!isJsonObject(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isJsonObject(right)) throw errBadArgType('map[string]interface {}', right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goScalarEqual(left[mergeKey], right[mergeKey]);
}
