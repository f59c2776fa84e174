// Counterpart of strategicpatch.StrategicMergeMapPatch as kube-apiserver's PATCH handler calls
// it for application/strategic-merge-patch+json.
import type { Definitions, SchemaNode } from '../openapi/index.ts';
import { PatchError, sentinel } from './errors.ts';
import { deepCopy, isJsonObject, type JsonObject, type JsonValue } from './json-value.ts';
import { mergeMap, SERVER_MERGE_OPTIONS } from './merge.ts';
import { patchMetaFromSchema } from './patch-meta.ts';

/** What encoding/json says when a patch body is valid JSON but not an object. */
function notAnObject(v: unknown): PatchError {
  const what = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
  return new PatchError('BadJSONDoc', `json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
}

/** A decoded JSON document as a map; `null` decodes to an empty map, as in Go. */
export function toJsonObject(v: unknown): JsonObject {
  if (v === null || v === undefined) return {};
  if (!isJsonObject(v)) throw notAnObject(v);
  return deepCopy(v as JsonValue) as JsonObject;
}

/**
 * Applies a strategic merge patch to `original` (the live object as JSON) and returns the patched
 * JSON. Neither argument is modified. `schema` is the kind's OpenAPI definition (schemaForGVK) or
 * `{ $ref: definitionName }`; undefined means no Go type is known (custom resources), for which kube
 * refuses the format.
 *
 * Throws a PatchError carrying kube's message; interpretStrategicMergePatchError turns it into the
 * Status kube-apiserver answers (400 for malformed directives or a patch that is not an object,
 * 422 for lists of lists, 500 with the bare message for everything else, e.g. a missing merge key).
 */
export function applyStrategicMergePatch(original: unknown, patch: unknown, schema: SchemaNode | undefined,
  defs?: Definitions): JsonObject {
  if (schema === undefined) throw sentinel('UnsupportedStrategicMergePatchFormat');
  const meta = defs === undefined ? patchMetaFromSchema(schema) : patchMetaFromSchema(schema, defs);
  return mergeMap(toJsonObject(original), toJsonObject(patch), meta, SERVER_MERGE_OPTIONS);
}
