// Applying what a mutation evaluated to: an ApplyConfiguration is checked against the kind's
// schema (typed conversion, no atomic value touched) and merged into the object as server-side
// apply merges (associative lists by key) without tracking ownership; a JSONPatch list becomes
// RFC 6902 operations applied with evanphx/json-patch's semantics (a failed "test" leaves the
// object as it was). Errors are kube's texts; the caller answers them through failurePolicy.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch/{smd,json_patch}.go.
import type { SchemaNode } from '../../../apimachinery/openapi/index.ts';
import { validateTyped, validationErrorsMessage } from '../../../apimachinery/managedfields/index.ts';
import { merge } from '../../../apimachinery/managedfields/typed-merge.ts';
import { atomOf, rootType, type TypeRef } from '../../../apimachinery/managedfields/type-ref.ts';
import type { JsonObject, JsonValue } from '../../../apimachinery/patch/json-value.ts';
import { JSONPatchValue, patchValueToJSON, typeNameMismatches, type MutationObject } from '../../../cel/index.ts';

/** A mutation's failure, answered through the policy's failurePolicy (kube's plain errors). */
export class MutationError extends Error {}

/** findAtomics: the paths of atomic maps, structs and lists the apply configuration sets. */
function findAtomics(path: string, t: TypeRef, v: JsonValue): string[] {
  const out: string[] = [];
  const a = atomOf(t, v);
  if (a.kind === 'map' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
    if (a.atomic) out.push(path);
    // Only declared fields are followed (kube's FindField), not a map's values.
    for (const [k, x] of Object.entries(v)) if (a.isField(k)) out.push(...findAtomics(`${path}.${k}`, a.field(k), x));
  } else if (a.kind === 'list' && Array.isArray(v)) {
    if (a.atomic) out.push(path);
    v.forEach((x, i) => out.push(...findAtomics(`${path}[${String(i)}]`, a.elem, x)));
  }
  return out;
}

function checkTypeNames(v: unknown): void {
  const errs = typeNameMismatches(v);
  if (errs.length > 0) throw new MutationError(`type mismatch: ${errs.join('\n')}`);
}

/**
 * ApplyStructuredMergeDiff: `live` (the object in the matched version, as JSON) with the apply
 * configuration merged in. `schema` undefined: the kind has no schema (fields deduced).
 */
export function applyConfiguration(live: JsonObject, value: MutationObject, schema: SchemaNode | undefined): JsonObject {
  checkTypeNames(value);
  const patch = patchValueToJSON(value) as JsonObject;
  patch['apiVersion'] = live['apiVersion'] ?? null;
  patch['kind'] = live['kind'] ?? null;
  const t = rootType(schema);
  const invalid = validateTyped(patch, t);
  if (invalid.length > 0) throw new MutationError(`error applying patch: failed to convert patch object to typed object: ${validationErrorsMessage(invalid)}`);
  const atomics = findAtomics('', t, patch);
  if (atomics.length > 0) {
    throw new MutationError(`error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}`);
  }
  return (merge(live, patch, t) ?? {}) as JsonObject;
}

/** The RFC 6902 operations of a JSONPatch list (value present only when the expression set it). */
export function jsonPatchOperations(list: unknown): Record<string, unknown>[] {
  if (!Array.isArray(list)) throw new MutationError('type mismatch: JSONPatchType.expression should evaluate to array');
  return list.map((v: unknown) => {
    if (!(v instanceof JSONPatchValue)) throw new MutationError('type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch');
    const op: Record<string, unknown> = { op: v.op, path: v.path };
    if (v.from !== '') op['from'] = v.from;
    if (v.value !== undefined) {
      checkTypeNames(v.value);
      op['value'] = patchValueToJSON(v.value);
    }
    return op;
  });
}

/** evanphx's failed "test": the patch is not applied at all. */
export const isTestFailure = (err: unknown): boolean => err instanceof Error && err.message.endsWith(': test failed');
