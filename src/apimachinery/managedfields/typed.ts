// The read-only walks of structured-merge-diff's typed package over JSON objects:
// ToFieldSet (the fields a value sets: what an applier owns) and Compare (which fields an
// update added, modified or removed: what an updater gains or loses).
// Counterpart of sigs.k8s.io/structured-merge-diff/v6/typed/helpers.go,
// sigs.k8s.io/structured-merge-diff/v6/typed/tofieldset.go and
// sigs.k8s.io/structured-merge-diff/v6/typed/compare.go.
import { deepEqual, isJsonObject } from '../patch/json-value.ts';
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { fieldElement, keyElement, pathToString, serializeElement, valueElement } from './path-element.ts';
import type { KeyField, Path, PathElement } from './path-element.ts';
import { FieldSet, FieldSetBuilder } from './set.ts';
import { atomOf, keyDefault } from './type-ref.ts';
import type { Atom, TypeRef } from './type-ref.ts';

/** A value that does not fit its schema (duplicate keys, key fields missing, ...). */
export class TypedValueError extends Error {
  override readonly name = 'TypedValueError';
  /** The message without its path. */
  readonly detail: string;
  constructor(path: Path, detail: string) {
    super(path.length === 0 ? detail : `${pathToString(path)}: ${detail}`);
    this.detail = detail;
  }
}

export type ListAtom = Extract<Atom, { kind: 'list' }>;

/**
 * The atom to walk with: the schema's atom for the value, or a leaf when the value does not
 * have the shape the schema wants (kube would report a validation error there).
 */
export function effectiveAtom(t: TypeRef, ...vs: (JsonValue | undefined)[]): Atom {
  const v = vs.find((x) => x !== undefined && x !== null);
  const a = atomOf(t, v === undefined ? vs.find((x) => x !== undefined) : v);
  if (a.kind === 'map' && !vs.every((x) => x === undefined || x === null || isJsonObject(x))) return { kind: 'scalar' };
  if (a.kind === 'list' && !vs.every((x) => x === undefined || x === null || Array.isArray(x))) return { kind: 'scalar' };
  return a;
}

/** The path element of an associative list's item: its key fields, or its value for a set. */
export function itemElement(path: Path, list: ListAtom, item: JsonValue): PathElement {
  if (list.keys !== undefined && list.keys.length > 0) {
    if (item === null) throw new TypedValueError(path, 'associative list with keys may not have a null element');
    if (!isJsonObject(item)) throw new TypedValueError(path, 'associative list with keys may not have non-map elements');
    const fields: KeyField[] = [];
    for (const k of list.keys) {
      const v = Object.hasOwn(item, k) ? item[k] : keyDefault(list.elem, k);
      if (v !== undefined) fields.push({ name: k, value: v });
    }
    if (fields.length === 0) {
      throw new TypedValueError(path, `associative list with keys has an element that omits all key fields ${JSON.stringify(list.keys)} (and doesn't have default values for any key fields)`);
    }
    return keyElement(fields);
  }
  if (isJsonObject(item)) throw new TypedValueError(path, "associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new TypedValueError(path, 'not supported: associative list with lists as elements');
  if (item === null) throw new TypedValueError(path, "associative list without keys has an element that's an explicit null");
  return valueElement(item);
}

const isEmptyList = (v: JsonValue | undefined): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
const isEmptyMap = (v: JsonValue | undefined): boolean =>
  v === undefined || v === null || (isJsonObject(v) && Object.keys(v).length === 0);
const asList = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
const asMap = (v: JsonValue | undefined): JsonObject => (isJsonObject(v) ? v : {});

// The walks below build each node of the result sets from its own members and children
// (FieldSetBuilder), so their cost is linear in the object: inserting every path from the root
// would cost depth squared, and the sorted inserts n squared for a map of n keys. `path` is a
// stack, kept only for error messages.

/** typed.ToFieldSet: every leaf, every list item, and map entries that are not struct fields. */
export function toFieldSet(value: JsonValue, t: TypeRef): FieldSet {
  return collect([], t, value).below ?? new FieldSet();
}

/** What the walk records for the value at `path`: the path itself, and the paths below it. */
interface Collected { readonly self: boolean; readonly below: FieldSet | undefined }

function collect(path: PathElement[], t: TypeRef, v: JsonValue): Collected {
  const a = effectiveAtom(t, v);
  if (a.kind === 'scalar' || a.atomic) return { self: true, below: undefined };
  const b = new FieldSetBuilder();
  if (a.kind === 'list') {
    const items = asList(v);
    const seen = new Set<string>();
    const dups = new Set<string>();
    const pes = items.map((item) => itemElement(path, a, item));
    const keys = pes.map(serializeElement);
    for (let i = 0; i < pes.length; i++) {
      const k = keys[i] as string;
      if (seen.has(k) && !dups.has(k)) { dups.add(k); b.addMember(pes[i] as PathElement); }
      seen.add(k);
    }
    items.forEach((item, i) => {
      if (dups.has(keys[i] as string)) return;
      const pe = pes[i] as PathElement;
      path.push(pe);
      const c = collect(path, a.elem, item);
      path.pop();
      if (c.below !== undefined) b.addChild(pe, c.below);
      b.addMember(pe);
    });
    return { self: false, below: b.build() };
  }
  const m = asMap(v);
  for (const key of Object.keys(m)) {
    const val = m[key] as JsonValue;
    const pe = fieldElement(key);
    path.push(pe);
    const c = collect(path, a.field(key), val);
    path.pop();
    if (c.below !== undefined) b.addChild(pe, c.below);
    if (c.self || val === null || (isJsonObject(val) && isEmptyObject(val)) || !a.isField(key)) b.addMember(pe);
  }
  return { self: false, below: b.build() };
}

function isEmptyObject(o: JsonObject): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
}

export interface Comparison { readonly added: FieldSet; readonly modified: FieldSet; readonly removed: FieldSet }

type Which = 'added' | 'modified' | 'removed';
type Builders = Record<Which, FieldSetBuilder>;
const builders = (): Builders => ({ added: new FieldSetBuilder(), modified: new FieldSetBuilder(), removed: new FieldSetBuilder() });

/** typed.Compare of two versions of an object: the paths added, modified and removed. */
export function compare(lhs: JsonValue, rhs: JsonValue, t: TypeRef): Comparison {
  const below = compareBelow([], t, lhs, rhs);
  if (below === undefined) return { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  return { added: below.added.build(), modified: below.modified.build(), removed: below.removed.build() };
}

/** Compares the value at path (the element `pe` of the node `parent`). */
function compareAt(parent: Builders, path: PathElement[], pe: PathElement, t: TypeRef, l: JsonValue | undefined, r: JsonValue | undefined): void {
  path.push(pe);
  const below = compareBelow(path, t, l, r);
  path.pop();
  if (below === undefined) {
    if (l === undefined) parent.added.addMember(pe);
    else if (r === undefined) parent.removed.addMember(pe);
    else if (!deepEqual(l, r)) parent.modified.addMember(pe);
    return;
  }
  for (const w of ['added', 'modified', 'removed'] as const) parent[w].addChild(pe, below[w].build());
  if (l === undefined) parent.added.addMember(pe);
  else if (r === undefined) parent.removed.addMember(pe);
}

/** The changes below a value, or undefined when the value is a leaf (compared as a whole). */
function compareBelow(path: PathElement[], t: TypeRef, l: JsonValue | undefined, r: JsonValue | undefined): Builders | undefined {
  const a = effectiveAtom(t, r, l);
  if (a.kind === 'scalar' || a.atomic
    || (a.kind === 'list' && isEmptyList(l) && isEmptyList(r))
    || (a.kind === 'map' && isEmptyMap(l) && isEmptyMap(r))) {
    return undefined;
  }
  const out = builders();
  if (a.kind === 'list') compareItems(out, path, a, asList(l), asList(r));
  else {
    const lm = asMap(l);
    const rm = asMap(r);
    for (const key of unionKeys(lm, rm)) {
      compareAt(out, path, fieldElement(key), a.field(key),
        Object.hasOwn(lm, key) ? lm[key] : undefined, Object.hasOwn(rm, key) ? rm[key] : undefined);
    }
  }
  return out;
}

export function unionKeys(l: JsonObject, r: JsonObject): string[] {
  return [...new Set([...Object.keys(l), ...Object.keys(r)])];
}

function compareItems(out: Builders, path: PathElement[], a: ListAtom, l: JsonValue[], r: JsonValue[]): void {
  const order: { pe: PathElement; k: string }[] = [];
  const group = (items: JsonValue[], into: Map<string, JsonValue[]>, other?: Map<string, JsonValue[]>): void => {
    for (const item of items) {
      const pe = itemElement(path, a, item);
      const k = serializeElement(pe);
      const list = into.get(k);
      if (list !== undefined) { list.push(item); continue; }
      into.set(k, [item]);
      if (other === undefined || !other.has(k)) order.push({ pe, k });
    }
  };
  const lValues = new Map<string, JsonValue[]>();
  const rValues = new Map<string, JsonValue[]>();
  group(l, lValues);
  group(r, rValues, lValues);
  for (const { pe, k } of order) {
    const ll = lValues.get(k) ?? [];
    const rl = rValues.get(k) ?? [];
    if (ll.length <= 1 && rl.length <= 1) {
      compareAt(out, path, pe, a.elem, ll[0], rl[0]);
    } else if (ll.length >= 2 && rl.length >= 2) {
      if (ll.length !== rl.length || !ll.every((x, i) => deepEqual(x, rl[i]))) out.modified.addMember(pe);
    } else if (ll.length >= 2) {
      if (rl.length !== 0) compareAt(out, path, pe, a.elem, undefined, rl[0]);
      out.removed.addMember(pe);
    } else {
      if (ll.length !== 0) compareAt(out, path, pe, a.elem, ll[0], undefined);
      out.added.addMember(pe);
    }
  }
}
