// The read-only walks of structured-merge-diff's typed package over JSON objects:
// ToFieldSet (the fields a value sets: what an applier owns) and Compare (which fields an
// update added, modified or removed: what an updater gains or loses).
import { deepEqual, isJsonObject } from '../patch/json-value.ts';
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { fieldElement, keyElement, pathToString, serializeElement, valueElement } from './path-element.ts';
import type { KeyField, Path, PathElement } from './path-element.ts';
import { FieldSet } from './set.ts';
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

/** typed.ToFieldSet: every leaf, every list item, and map entries that are not struct fields. */
export function toFieldSet(value: JsonValue, t: TypeRef): FieldSet {
  const set = new FieldSet();
  collect(set, [], t, value);
  return set;
}

function collect(set: FieldSet, path: PathElement[], t: TypeRef, v: JsonValue): void {
  const a = effectiveAtom(t, v);
  if (a.kind === 'scalar' || a.atomic) { set.insert(path); return; }
  if (a.kind === 'list') {
    const items = asList(v);
    const seen = new Set<string>();
    const dups = new Set<string>();
    const pes = items.map((item) => itemElement(path, a, item));
    for (const pe of pes) {
      const k = serializeElement(pe);
      if (seen.has(k) && !dups.has(k)) { dups.add(k); set.insert([...path, pe]); }
      seen.add(k);
    }
    items.forEach((item, i) => {
      const pe = pes[i] as PathElement;
      if (dups.has(serializeElement(pe))) return;
      const p = [...path, pe];
      collect(set, p, a.elem, item);
      set.insert(p);
    });
    return;
  }
  for (const [key, val] of Object.entries(asMap(v))) {
    const p = [...path, fieldElement(key)];
    collect(set, p, a.field(key), val);
    if (val === null || (isJsonObject(val) && Object.keys(val).length === 0) || !a.isField(key)) set.insert(p);
  }
}

export interface Comparison { readonly added: FieldSet; readonly modified: FieldSet; readonly removed: FieldSet }

/** typed.Compare of two versions of an object: the paths added, modified and removed. */
export function compare(lhs: JsonValue, rhs: JsonValue, t: TypeRef): Comparison {
  const c = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareAt(c, [], t, lhs, rhs);
  return c;
}

function compareAt(c: Comparison, path: PathElement[], t: TypeRef, l: JsonValue | undefined, r: JsonValue | undefined): void {
  const leaf = (): void => {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!deepEqual(l, r)) c.modified.insert(path);
  };
  const a = effectiveAtom(t, r, l);
  if (a.kind === 'scalar' || a.atomic
    || (a.kind === 'list' && isEmptyList(l) && isEmptyList(r))
    || (a.kind === 'map' && isEmptyMap(l) && isEmptyMap(r))) {
    leaf();
    return;
  }
  if (a.kind === 'list') compareItems(c, path, a, asList(l), asList(r));
  else {
    const lm = asMap(l);
    const rm = asMap(r);
    for (const key of unionKeys(lm, rm)) {
      compareAt(c, [...path, fieldElement(key)], a.field(key),
        Object.hasOwn(lm, key) ? lm[key] : undefined, Object.hasOwn(rm, key) ? rm[key] : undefined);
    }
  }
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

export function unionKeys(l: JsonObject, r: JsonObject): string[] {
  return [...new Set([...Object.keys(l), ...Object.keys(r)])];
}

function compareItems(c: Comparison, path: PathElement[], a: ListAtom, l: JsonValue[], r: JsonValue[]): void {
  const order: PathElement[] = [];
  const group = (items: JsonValue[], into: Map<string, JsonValue[]>, other?: Map<string, JsonValue[]>): void => {
    for (const item of items) {
      const pe = itemElement(path, a, item);
      const k = serializeElement(pe);
      const list = into.get(k);
      if (list !== undefined) { list.push(item); continue; }
      into.set(k, [item]);
      if (other === undefined || !other.has(k)) order.push(pe);
    }
  };
  const lValues = new Map<string, JsonValue[]>();
  const rValues = new Map<string, JsonValue[]>();
  group(l, lValues);
  group(r, rValues, lValues);
  for (const pe of order) {
    const k = serializeElement(pe);
    const ll = lValues.get(k) ?? [];
    const rl = rValues.get(k) ?? [];
    const p = [...path, pe];
    if (ll.length <= 1 && rl.length <= 1) {
      compareAt(c, p, a.elem, ll[0], rl[0]);
    } else if (ll.length >= 2 && rl.length >= 2) {
      if (ll.length !== rl.length || !ll.every((x, i) => deepEqual(x, rl[i]))) c.modified.insert(p);
    } else if (ll.length >= 2) {
      if (rl.length !== 0) compareAt(c, p, a.elem, undefined, rl[0]);
      c.removed.insert(p);
    } else {
      if (ll.length !== 0) compareAt(c, p, a.elem, ll[0], undefined);
      c.added.insert(p);
    }
  }
}
