// The patch formats that need no schema: JSON patch (RFC 6902) and JSON merge patch (RFC 7386),
// decoded and applied as kube's jsonPatcher does (patch.go applyJSPatch, with evanphx/json-patch v4).
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/patch.go (jsonPatcher) and
// gopkg.in/evanphx/json-patch.v4.
import { parse as yamlParse } from 'yaml';
import { newBadRequest, newGenericServerResponse, newRequestEntityTooLarge } from '../../apimachinery/errors/status-error.ts';
import { jsonSyntaxError, scanJSON, yamlNestingBound } from '../../apimachinery/fieldvalidation/index.ts';
import { checkBodyDepth, isStackOverflow, MAX_DECODE_DEPTH, MAX_OBJECT_DEPTH, tooDeepMessage } from '../../apimachinery/json-depth.ts';
import type { PatchType } from '../negotiation.ts';
import { applyJSONPatchOpsPaced, goJSONType, JSONPatchError } from './json-patch.ts';
import type { FieldValidationDirective } from './scope.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const MAX_JSON_PATCH_OPERATIONS = 10000;

/** Parses JSON text; undefined plus encoding/json's syntax error text when malformed. */
function parseJSON(text: string): { value: unknown } | { error: string } {
  const err = jsonSyntaxError(text);
  if (err !== undefined) return { error: err };
  return { value: JSON.parse(text) as unknown };
}

// pruneNulls: null members removed from objects, recursively (also inside arrays).
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((e) => (e === null ? e : pruneNulls(e)));
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v)) if (e !== null) setKey(out, k, pruneNulls(e));
  return out;
}

// merge: a patch object merges into an object, anything else replaces (nulls pruned when the
// current value is not an object).
function merge(cur: unknown, patch: unknown): unknown {
  if (!isObject(cur)) return pruneNulls(patch);
  if (!isObject(patch)) return patch;
  return mergeDocs({ ...cur }, patch);
}

function mergeDocs(doc: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) { delete doc[k]; continue; }
    const cur = Object.prototype.hasOwnProperty.call(doc, k) ? doc[k] : undefined;
    setKey(doc, k, cur === undefined || cur === null ? pruneNulls(v) : merge(cur, v));
  }
  return doc;
}

/**
 * The patch engines recurse: a well-formed patch nested deeper than kapi stores is refused with
 * 400 before one runs (a merge patch is a partial object; a JSON patch's values sit two levels
 * down). Malformed bodies get kube's errors from the engines, which scan without recursion:
 * beyond 10000 levels that is encoding/json's "exceeded max depth".
 */
export function checkPatchBodyDepth(type: PatchType, patchText: string): void {
  const scan = scanJSON(patchText);
  if (scan.error !== undefined || scan.depth <= MAX_OBJECT_DEPTH) return;
  if (scan.depth > MAX_DECODE_DEPTH + 2) throw newBadRequest(tooDeepMessage('the patch'));
  if (type !== 'json-patch') checkBodyDepth(JSON.parse(patchText), 'the patch');
}

/** evanphx's MergePatch on a JSON object document; rejects malformed or non-object patches with 400 "Invalid JSON Patch". */
export function applyMergePatch(target: unknown, patchText: string): unknown {
  checkPatchBodyDepth('merge-patch', patchText);
  const parsed = parseJSON(patchText);
  if ('error' in parsed || parsed.value === null) throw newBadRequest('Invalid JSON Patch');
  const patch = parsed.value;
  if (isObject(patch)) return mergeDocs(isObject(target) ? { ...target } : {}, patch);
  // Not an object: an array becomes the document; anything else is refused.
  if (Array.isArray(patch)) return pruneNulls(patch);
  throw newBadRequest('Invalid JSON Patch');
}

/**
 * The strict decode kube runs first on a merge patch with fieldValidation Strict or Warn (the
 * default): 400 "error decoding patch: ..." for malformed JSON or a body that is not an object.
 */
export function checkMergePatchBody(patchText: string, directive: FieldValidationDirective): void {
  if (directive === 'Ignore') return;
  const parsed = parseJSON(patchText);
  if ('error' in parsed) throw newBadRequest(`error decoding patch: ${parsed.error}`);
  const v = parsed.value;
  if (v !== null && !isObject(v)) {
    throw newBadRequest(`error decoding patch: json: cannot unmarshal ${goJSONType(v)} into Go value of type map[string]interface {}`);
  }
}

/**
 * Decodes and applies an RFC 6902 patch as kube does: with Strict or Warn, a malformed body is a
 * 400 "error decoding patch: ..." (its decode into []handlers.jsonPatchOp); with Ignore,
 * jsonpatch.DecodePatch's own error. More than 10000 operations is a 413. A failing operation is
 * a 422 whose Status says only "the server rejected our request due to an error in our request"
 * (NewGenericServerResponse without causes: evanphx's text is not sent).
 */
export async function applyJSONPatch(target: unknown, patchText: string, directive: FieldValidationDirective,
  pause: () => Promise<void> | undefined = () => undefined): Promise<unknown> {
  checkPatchBodyDepth('json-patch', patchText);
  const parsed = parseJSON(patchText);
  const strict = directive !== 'Ignore';
  if ('error' in parsed) throw newBadRequest(strict ? `error decoding patch: ${parsed.error}` : parsed.error);
  const ops = parsed.value;
  if (ops !== null && !Array.isArray(ops)) {
    throw newBadRequest(strict
      ? `error decoding patch: json: cannot unmarshal ${goJSONType(ops)} into Go value of type []handlers.jsonPatchOp`
      : `json: cannot unmarshal ${goJSONType(ops)} into Go value of type jsonpatch.Patch`);
  }
  const list: unknown[] = ops ?? [];
  for (const op of list) {
    if (op === null || isObject(op)) {
      if (strict && op !== null) checkOpFields(op);
      continue;
    }
    throw newBadRequest(strict
      ? `error decoding patch: json: cannot unmarshal ${goJSONType(op)} into Go value of type handlers.jsonPatchOp`
      : `json: cannot unmarshal ${goJSONType(op)} into Go value of type jsonpatch.Operation`);
  }
  if (list.length > MAX_JSON_PATCH_OPERATIONS) {
    throw newRequestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${list.length}`);
  }
  if (!Array.isArray(target) && !isObject(target)) return target;
  try {
    return await applyJSONPatchOpsPaced(target, list, pause);
  } catch (err) {
    if (err instanceof JSONPatchError) throw newGenericServerResponse(422, err.message);
    throw err;
  }
}

// handlers.jsonPatchOp's string fields refuse other JSON types (null leaves them empty).
function checkOpFields(op: Record<string, unknown>): void {
  for (const f of ['op', 'path', 'from'] as const) {
    const v = op[f];
    if (v === undefined || v === null || typeof v === 'string') continue;
    throw newBadRequest(`error decoding patch: json: cannot unmarshal ${goJSONType(v)} into Go struct field jsonPatchOp.${f} of type string`);
  }
}

export function parseYAMLOrJSON(raw: string, contentType: string | undefined): unknown {
  const isYAML = (contentType ?? '').toLowerCase().includes('yaml');
  let value: unknown;
  // The yaml package recurses: a document that may nest too deep never reaches it.
  if (isYAML && yamlNestingBound(raw) > MAX_DECODE_DEPTH) throw newBadRequest(tooDeepMessage('the request body'));
  try {
    value = isYAML ? yamlParse(raw) : JSON.parse(raw);
  } catch (err) {
    if (isStackOverflow(err)) throw newBadRequest(tooDeepMessage('the request body'));
    throw newBadRequest(`couldn't parse body: ${(err as Error).message}`);
  }
  checkBodyDepth(value);
  return value;
}
