// Schema-aware helpers over plain objects, for callers that need the merge or the field set
// without managedFields bookkeeping (e.g. dry runs, reset fields of a strategy).
// Counterpart of k8s.io/apimachinery/pkg/util/managedfields/internal/fields.go.
import type { SchemaNode } from '../openapi/index.ts';
import type { JsonObject } from '../patch/json-value.ts';
import { fieldElement } from './path-element.ts';
import { FieldSet } from './set.ts';
import { rootType } from './type-ref.ts';
import { toFieldSet } from './typed.ts';
import { updaterApply } from './updater.ts';

/** The fields an object sets (typed.ToFieldSet): what an applier of this object owns. */
export function fieldsOf(obj: object, schema: SchemaNode | undefined): FieldSet {
  return toFieldSet(obj as JsonObject, rootType(schema));
}

/**
 * The apply merge alone: `applied` merged into `live` (associative lists by key, atomic values
 * replaced, applied values winning); fields in `previouslyApplied` that `applied` no longer sets
 * are removed unless `ownedByOthers` holds them. Throws TypedValueError on bad input.
 */
export function applyConfiguration(live: object, applied: object, schema: SchemaNode | undefined,
  opts: { readonly previouslyApplied?: FieldSet; readonly ownedByOthers?: FieldSet } = {}): object {
  const managers = new Map<string, { set: FieldSet; apiVersion: string; applied: boolean }>();
  if (opts.previouslyApplied !== undefined) managers.set('self', { set: opts.previouslyApplied, apiVersion: '', applied: true });
  if (opts.ownedByOthers !== undefined) managers.set('others', { set: opts.ownedByOthers, apiVersion: '', applied: false });
  const out = updaterApply({ type: rootType(schema), ignored: undefined }, live as JsonObject, applied as JsonObject, '',
    managers, 'self', true);
  return out ?? live;
}

/** A reset-field set from dotted field names: resetFieldsOf(['status'], ['metadata', 'labels']). */
export function resetFieldsOf(...paths: (readonly string[])[]): FieldSet {
  return FieldSet.of(...paths.map((p) => p.map(fieldElement)));
}
