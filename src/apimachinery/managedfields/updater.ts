// structured-merge-diff's merge.Updater over JSON objects. Managers recorded at another
// apiVersion are compared in theirs, through the updater's converter (version-converter.ts);
// without one every version has the same shape (kapi's built-ins, CRDs converting with None).
import { deepEqual } from '../patch/json-value.ts';
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { ConflictsError } from './conflict.ts';
import type { Conflict } from './conflict.ts';
import type { VersionedSet } from './managed.ts';
import { FieldSet } from './set.ts';
import type { TypeRef } from './type-ref.ts';
import { merge, removeItems, ensureNamedFieldsAreMembers } from './typed-merge.ts';
import { compare, toFieldSet } from './typed.ts';
import type { Comparison } from './typed.ts';
import { ConversionError, type VersionConverter, type Versioned } from './version-converter.ts';

export type ManagerSets = Map<string, VersionedSet>;

export interface Updater {
  readonly type: TypeRef;
  /** Fields the strategy resets (GetResetFields): never owned, never in conflict. */
  readonly ignored: FieldSet | undefined;
  /** Converts to the versions managers were recorded in; undefined: all versions look alike. */
  readonly converter?: VersionConverter;
}

function filtered(u: Updater, c: Comparison): Comparison {
  if (u.ignored === undefined) return c;
  const ig = u.ignored;
  return { added: c.added.recursiveDifference(ig), modified: c.modified.recursiveDifference(ig), removed: c.removed.recursiveDifference(ig) };
}

/**
 * `obj` in `apiVersion` (undefined: the kind has no such version). A failed conversion throws a
 * ConversionError whose message starts with `what`, as the Go updater wraps it.
 */
function at(u: Updater, obj: JsonValue, apiVersion: string, what?: string): Versioned | undefined {
  if (u.converter === undefined) return { object: obj, type: u.type };
  try {
    return u.converter.convert(obj, apiVersion);
  } catch (err) {
    if (err instanceof ConversionError && what !== undefined) throw new ConversionError(`${what}: ${err.message}`);
    throw err;
  }
}

/** The change from oldObj to newObj seen in `apiVersion`; undefined when the kind has no such version. */
function compareAt(u: Updater, oldObj: JsonValue, newObj: JsonValue, apiVersion: string): Comparison | undefined {
  const o = at(u, oldObj, apiVersion, 'failed to convert old object');
  if (o === undefined) return undefined;
  const n = at(u, newObj, apiVersion, 'failed to convert new object');
  if (n === undefined) return undefined;
  return filtered(u, compare(o.object, n.object, o.type));
}

/**
 * Updater.update: other managers lose the fields this change removed, and the fields it
 * changed that they owned, each seen in the manager's version. Rejects with ConflictsError for
 * the latter unless `force`; managers of a version the kind lacks are dropped.
 */
function updateOthers(u: Updater, oldObj: JsonValue, newObj: JsonValue, apiVersion: string, managers: ManagerSets,
  workflow: string, force: boolean): Comparison {
  const cmp = filtered(u, compare(oldObj, newObj, u.type));
  const byVersion = new Map<string, Comparison | undefined>([[apiVersion, cmp]]);
  const conflicts = new Map<string, FieldSet>();
  const removed = new Map<string, FieldSet>();
  for (const [manager, vs] of [...managers]) {
    if (manager === workflow) continue;
    if (!byVersion.has(vs.apiVersion)) byVersion.set(vs.apiVersion, compareAt(u, oldObj, newObj, vs.apiVersion));
    const c = byVersion.get(vs.apiVersion);
    if (c === undefined) { managers.delete(manager); continue; }
    const conflict = vs.set.intersection(c.modified.union(c.added));
    if (!conflict.empty()) conflicts.set(manager, conflict);
    if (!c.removed.empty()) removed.set(manager, c.removed);
  }
  if (!force && conflicts.size > 0) {
    const list: Conflict[] = [];
    for (const [manager, set] of conflicts) for (const path of set.paths()) list.push({ manager, path });
    throw new ConflictsError(list);
  }
  for (const [manager, vs] of [...managers]) {
    if (manager === workflow) continue;
    let set = vs.set;
    const c = conflicts.get(manager);
    if (c !== undefined) set = set.difference(c);
    const r = removed.get(manager);
    if (r !== undefined) set = set.difference(r);
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, { ...vs, set });
  }
  for (const [manager, vs] of [...managers]) if (vs.set.empty()) managers.delete(manager);
  return cmp;
}

/**
 * The conversions of reconcileManagedFieldsWithSchemaChanges: the live object in each manager's
 * version (a failure fails the write with the converter's bare error; managers of a version the
 * kind lacks are dropped). kapi does not re-shape field sets after an atomic/granular change.
 */
function reconcileVersions(u: Updater, live: JsonValue, managers: ManagerSets): void {
  if (u.converter === undefined) return;
  for (const [manager, vs] of [...managers]) if (at(u, live, vs.apiVersion) === undefined) managers.delete(manager);
}

/** Updater.Update: the manager now owns what it added or modified (force is implied). */
export function updaterUpdate(u: Updater, live: JsonValue, updated: JsonValue, apiVersion: string,
  managers: ManagerSets, manager: string): void {
  reconcileVersions(u, live, managers);
  const cmp = updateOthers(u, live, updated, apiVersion, managers, manager, true);
  const prev = managers.get(manager)?.set ?? new FieldSet();
  let set = prev.difference(cmp.removed).union(cmp.modified).union(cmp.added);
  if (u.ignored !== undefined) set = set.recursiveDifference(u.ignored);
  if (set.empty()) managers.delete(manager);
  else managers.set(manager, { set, apiVersion, applied: false });
}

/**
 * Updater.Apply: merges the configuration, prunes what the applier stopped applying (unless
 * another manager owns it), and moves ownership. Returns undefined when the object is
 * unchanged. Rejects with ConflictsError unless `force`, TypedValueError for bad input, or
 * ConversionError when a conversion to a manager's version fails.
 */
export function updaterApply(u: Updater, live: JsonObject, config: JsonObject, apiVersion: string,
  managers: ManagerSets, manager: string, force: boolean): JsonObject | undefined {
  reconcileVersions(u, live, managers);
  const merged = (merge(live, config, u.type) ?? {}) as JsonObject;
  const lastSet = managers.get(manager);
  let set = toFieldSet(config, u.type);
  if (u.ignored !== undefined) set = set.recursiveDifference(u.ignored);
  managers.set(manager, { set, apiVersion, applied: true });
  let pruned: JsonObject;
  try {
    pruned = prune(u, merged, apiVersion, managers, lastSet);
  } catch (err) {
    if (err instanceof ConversionError) throw new ConversionError(`failed to prune fields: ${err.message}`);
    throw err;
  }
  updateOthers(u, live, pruned, apiVersion, managers, manager, force);
  return deepEqual(live, pruned) ? undefined : pruned;
}

const ensure = (s: FieldSet, t: TypeRef): FieldSet => ensureNamedFieldsAreMembers(s, t);
const remove = (v: JsonValue, s: FieldSet, t: TypeRef): JsonValue => removeItems(v, s, t) ?? {};

/** prune: in the version the applier last applied in; the result back in `apiVersion`. */
function prune(u: Updater, merged: JsonObject, apiVersion: string, managers: ManagerSets, lastSet: VersionedSet | undefined): JsonObject {
  if (lastSet === undefined || lastSet.set.empty()) return merged;
  const last = at(u, merged, lastSet.apiVersion, 'failed to convert merged object to last applied version');
  if (last === undefined) return merged;
  let pruned = remove(last.object, ensure(lastSet.set, last.type), last.type);
  pruned = addBackOwnedItems(u, last, pruned, lastSet.apiVersion, managers);
  pruned = addBackDanglingItems(u, last, pruned, lastSet);
  const out = at(u, pruned, apiVersion);
  return (out?.object ?? pruned) as JsonObject;
}

/** Adds back what someone still owns, in each manager's version (the pruned version first). */
function addBackOwnedItems(u: Updater, merged: Versioned, pruned: JsonValue, prunedVersion: string, managers: ManagerSets): JsonValue {
  const owned = new Map<string, FieldSet>();
  for (const vs of managers.values()) owned.set(vs.apiVersion, (owned.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
  const versions = [...owned.keys()].sort((a, b) => (a === prunedVersion ? -1 : b === prunedVersion ? 1 : 0));
  let m: JsonValue = merged.object;
  for (const version of versions) {
    const mv = at(u, m, version, `failed add back owned items: failed to convert merged object at version ${version}`);
    if (mv === undefined) continue;
    const pv = at(u, pruned, version, `failed add back owned items: failed to convert pruned object at version ${version}`);
    if (pv === undefined) continue;
    const t = mv.type;
    const keep = ensure(toFieldSet(pv.object, t), t).union(ensure(owned.get(version) ?? new FieldSet(), t));
    m = mv.object;
    pruned = remove(m, ensure(toFieldSet(m, t), t).difference(keep), t);
  }
  return pruned;
}

/** Puts back what the pruning removed only partly (dangling parents of pruned fields). */
function addBackDanglingItems(u: Updater, merged: Versioned, pruned: JsonValue, lastSet: VersionedSet): JsonValue {
  const pv = at(u, pruned, lastSet.apiVersion, 'failed add back dangling items: failed to convert pruned object to last applied version');
  if (pv === undefined) return merged.object;
  const t = merged.type;
  const mergedSet = ensure(toFieldSet(merged.object, t), t);
  return remove(merged.object, mergedSet.difference(ensure(toFieldSet(pv.object, t), t)).intersection(ensure(lastSet.set, t)), t);
}
