// The rewriting walks of structured-merge-diff's typed package: Merge (apply an applied
// configuration onto the live object: associative lists merged by key, atomic values and
// lists replaced, the applied side winning), RemoveItems (prune paths) and
// EnsureNamedFieldsAreMembers (let a struct field own its subtree when pruning).
// Counterpart of sigs.k8s.io/structured-merge-diff/v6/typed/merge.go.
import { isJsonObject, setKey } from '../patch/json-value.ts';
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { elementsEqual, elementToString, fieldElement, serializeElement } from './path-element.ts';
import type { PathElement } from './path-element.ts';
import { FieldSetBuilder } from './set.ts';
import type { FieldSet } from './set.ts';
import { atomOf } from './type-ref.ts';
import type { TypeRef } from './type-ref.ts';
import { effectiveAtom, itemElement, TypedValueError, unionKeys } from './typed.ts';
import type { ListAtom } from './typed.ts';

const emptyList = (v: JsonValue | undefined): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
const emptyMap = (v: JsonValue | undefined): boolean =>
  v === undefined || v === null || (isJsonObject(v) && Object.keys(v).length === 0);

/** live.Merge(applied): undefined means "absent" (both sides absent). */
export function merge(lhs: JsonValue | undefined, rhs: JsonValue | undefined, t: TypeRef): JsonValue | undefined {
  return mergeAt([], t, lhs, rhs);
}

const hasKeys = (o: JsonObject): boolean => {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
};

function mergeAt(path: PathElement[], t: TypeRef, l: JsonValue | undefined, r: JsonValue | undefined): JsonValue | undefined {
  const a = effectiveAtom(t, r, l);
  if (a.kind === 'scalar' || a.atomic || (a.kind === 'list' && emptyList(l) && emptyList(r))
    || (a.kind === 'map' && emptyMap(l) && emptyMap(r))) {
    return r !== undefined ? r : l;
  }
  if (a.kind === 'list') {
    const out = mergeItems(path, a, Array.isArray(l) ? l : [], Array.isArray(r) ? r : []);
    return out.length > 0 ? out : undefined;
  }
  const lm: JsonObject = isJsonObject(l) ? l : {};
  const rm: JsonObject = isJsonObject(r) ? r : {};
  const out: JsonObject = {};
  // `path` is a stack (for error messages): copying it per level would cost depth squared.
  for (const key of unionKeys(lm, rm)) {
    path.push(fieldElement(key));
    const v = mergeAt(path, a.field(key),
      Object.hasOwn(lm, key) ? lm[key] : undefined, Object.hasOwn(rm, key) ? rm[key] : undefined);
    path.pop();
    if (v !== undefined) setKey(out, key, v);
  }
  return hasKeys(out) ? out : undefined;
}

// Items keep the live order; applied items not yet live are placed where the applied order
// puts them relative to the items both sides share (mergingWalker.visitListItems).
function mergeItems(path: PathElement[], a: ListAtom, l: JsonValue[], r: JsonValue[]): JsonValue[] {
  const rPEs: PathElement[] = [];
  const rSeen = new Map<string, JsonValue>();
  for (const item of r) {
    const pe = itemElement(path, a, item);
    const k = serializeElement(pe);
    if (rSeen.has(k)) throw new TypedValueError(path, `duplicate entries for key ${elementToString(pe)}`);
    rSeen.set(k, item);
    rPEs.push(pe);
  }
  const lPEs: PathElement[] = [];
  const lSeen = new Map<string, JsonValue>();
  for (const item of l) {
    const pe = itemElement(path, a, item);
    const k = serializeElement(pe);
    lSeen.set(k, lSeen.has(k) ? null : item);
    lPEs.push(pe);
  }
  const shared = rPEs.filter((pe) => lSeen.has(serializeElement(pe)));
  let sharedAt = 0;
  let next: PathElement | undefined = shared[sharedAt++];
  const merged = new Set<string>();
  const out: JsonValue[] = [];
  const push = (pe: PathElement, lv: JsonValue | undefined, rv: JsonValue | undefined): void => {
    path.push(pe);
    const v = mergeAt(path, a.elem, lv, rv);
    path.pop();
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < lPEs.length || ri < rPEs.length) {
    const lpe = lPEs[li];
    const rpe = rPEs[ri];
    if (lpe !== undefined && rpe !== undefined) {
      const k = serializeElement(lpe);
      if (elementsEqual(lpe, rpe)) {
        merged.add(k);
        push(lpe, lSeen.get(k), rSeen.get(k));
        li++;
        ri++;
        next = shared[sharedAt++];
        continue;
      }
      if (rSeen.has(k) && next !== undefined && !elementsEqual(next, lpe)) { li++; continue; }
    }
    if (lpe !== undefined) {
      const k = serializeElement(lpe);
      if (!rSeen.has(k)) {
        push(lpe, l[li], undefined);
        li++;
        continue;
      } else if (merged.has(k)) {
        li++;
      }
    }
    if (rpe !== undefined) {
      const k = serializeElement(rpe);
      merged.add(k);
      push(rpe, lSeen.get(k), rSeen.get(k));
      ri++;
      if (next !== undefined && elementsEqual(next, rpe)) next = shared[sharedAt++];
    }
  }
  return out;
}

/**
 * value.RemoveItems: drops every path of `toRemove` (exact members) from the value. A map or
 * list emptied by the removal disappears (kube turns it into a nil field).
 */
export function removeItems(v: JsonValue, toRemove: FieldSet, t: TypeRef): JsonValue | undefined {
  const a = effectiveAtom(t, v);
  if (a.kind === 'scalar') return v;
  if (a.atomic) return undefined;
  if (a.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0) return undefined;
    const out: JsonValue[] = [];
    for (const item of v) {
      const pe = itemElement([], a, item);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.withPrefix(pe);
      if (sub.empty()) { out.push(item); continue; }
      const kept = removeItems(item, sub, a.elem);
      if (kept !== undefined) out.push(kept);
    }
    return out.length > 0 ? out : undefined;
  }
  if (!isJsonObject(v) || !hasKeys(v)) return undefined;
  const out: JsonObject = {};
  for (const [key, val] of Object.entries(v)) {
    const pe = fieldElement(key);
    if (toRemove.hasMember(pe)) continue;
    const sub = toRemove.withPrefix(pe);
    if (sub.empty()) { setKey(out, key, val as JsonValue); continue; }
    const kept = removeItems(val, sub, a.field(key));
    if (kept !== undefined) setKey(out, key, kept);
  }
  return hasKeys(out) ? out : undefined;
}

/** Set.EnsureNamedFieldsAreMembers: a struct field with children is also a member itself. */
export function ensureNamedFieldsAreMembers(set: FieldSet, t: TypeRef | undefined): FieldSet {
  const mapAtom = t === undefined ? undefined : atomOf(t, {});
  const listAtom = t === undefined ? undefined : atomOf(t, []);
  const { members, children } = set.entries();
  const out = new FieldSetBuilder();
  for (const m of members) out.addMember(m);
  for (const c of children) {
    let childType: TypeRef | undefined;
    if (c.pe.kind === 'field' && mapAtom?.kind === 'map') {
      // A duplicate member is merged away when the node is built.
      if (mapAtom.isField(c.pe.name)) out.addMember(c.pe);
      childType = mapAtom.field(c.pe.name);
    } else if (c.pe.kind === 'key' && listAtom?.kind === 'list') {
      childType = listAtom.elem;
    }
    out.addChild(c.pe, ensureNamedFieldsAreMembers(c.set, childType));
  }
  return out.build();
}
