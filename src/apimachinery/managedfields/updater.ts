// structured-merge-diff's merge.Updater over JSON objects. kapi serves one version per
// resource to SSA, so managers recorded at another apiVersion are compared as if the shapes
// were equal (kube converts; for kapi's single-version built-ins that is the identity).
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

export type ManagerSets = Map<string, VersionedSet>;

export interface Updater {
  readonly type: TypeRef;
  /** Fields the strategy resets (GetResetFields): never owned, never in conflict. */
  readonly ignored: FieldSet | undefined;
}

function filtered(u: Updater, c: Comparison): Comparison {
  if (u.ignored === undefined) return c;
  const ig = u.ignored;
  return { added: c.added.recursiveDifference(ig), modified: c.modified.recursiveDifference(ig), removed: c.removed.recursiveDifference(ig) };
}

/**
 * Updater.update: other managers lose the fields this change removed, and the fields it
 * changed that they owned. Rejects with ConflictsError for the latter unless `force`.
 */
function updateOthers(u: Updater, oldObj: JsonValue, newObj: JsonValue, managers: ManagerSets, workflow: string,
  force: boolean): Comparison {
  const cmp = filtered(u, compare(oldObj, newObj, u.type));
  const changed = cmp.modified.union(cmp.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    const c = vs.set.intersection(changed);
    if (!c.empty()) conflicts.set(manager, c);
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
    if (!cmp.removed.empty()) set = set.difference(cmp.removed);
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, { ...vs, set });
  }
  for (const [manager, vs] of [...managers]) if (vs.set.empty()) managers.delete(manager);
  return cmp;
}

/** Updater.Update: the manager now owns what it added or modified (force is implied). */
export function updaterUpdate(u: Updater, live: JsonValue, updated: JsonValue, apiVersion: string,
  managers: ManagerSets, manager: string): void {
  const cmp = updateOthers(u, live, updated, managers, manager, true);
  const prev = managers.get(manager)?.set ?? new FieldSet();
  let set = prev.difference(cmp.removed).union(cmp.modified).union(cmp.added);
  if (u.ignored !== undefined) set = set.recursiveDifference(u.ignored);
  if (set.empty()) managers.delete(manager);
  else managers.set(manager, { set, apiVersion, applied: false });
}

/**
 * Updater.Apply: merges the configuration, prunes what the applier stopped applying (unless
 * another manager owns it), and moves ownership. Returns undefined when the object is
 * unchanged. Rejects with ConflictsError unless `force`, or TypedValueError for bad input.
 */
export function updaterApply(u: Updater, live: JsonObject, config: JsonObject, apiVersion: string,
  managers: ManagerSets, manager: string, force: boolean): JsonObject | undefined {
  const merged = (merge(live, config, u.type) ?? {}) as JsonObject;
  const lastSet = managers.get(manager);
  let set = toFieldSet(config, u.type);
  if (u.ignored !== undefined) set = set.recursiveDifference(u.ignored);
  managers.set(manager, { set, apiVersion, applied: true });
  const pruned = prune(u, merged, managers, lastSet);
  updateOthers(u, live, pruned, managers, manager, force);
  return deepEqual(live, pruned) ? undefined : pruned;
}

function prune(u: Updater, merged: JsonObject, managers: ManagerSets, lastSet: VersionedSet | undefined): JsonObject {
  if (lastSet === undefined || lastSet.set.empty()) return merged;
  const ensure = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, u.type);
  const remove = (v: JsonObject, s: FieldSet): JsonObject => (removeItems(v, s, u.type) ?? {}) as JsonObject;
  let pruned = remove(merged, ensure(lastSet.set));
  // Add back what someone still owns.
  let owned = new FieldSet();
  for (const vs of managers.values()) owned = owned.union(vs.set);
  const mergedSet = ensure(toFieldSet(merged, u.type));
  pruned = remove(merged, mergedSet.difference(ensure(toFieldSet(pruned, u.type)).union(ensure(owned))));
  // Drop what the pruning removed only partly (dangling parents of pruned fields).
  const prunedSet = ensure(toFieldSet(pruned, u.type));
  return remove(merged, mergedSet.difference(prunedSet).intersection(ensure(lastSet.set)));
}
