// How kube's PATCH handler reports a patched object that does not decode into its kind (a value
// of the wrong type, or Strict's unknown fields): 422 Invalid on the field `patch`, with no kind
// or name, whose value is the patch map (strategic merge patch, printed as Go's %+v) or the
// patched JSON (JSON and merge patch), and whose detail is the decoder's error.
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/patch.go (interpretStrategicMergePatchError
// and friends).
import { invalid } from '../../apimachinery/errors/field-errors.ts';
import { newInvalid, StatusError } from '../../apimachinery/errors/status-error.ts';
import { fromUnstructuredError, shapeForGVK, type DecodeError } from '../../apimachinery/fieldvalidation/index.ts';
import { stringifyJSON } from '../../apimachinery/json-depth.ts';
import { goFormat, type JsonValue } from '../../apimachinery/patch/json-value.ts';
import type { GroupVersionKind } from '../../apimachinery/schema/group-version.ts';
import type { PatchType } from '../negotiation.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `v` with the keys of the objects at `touched` paths sorted (the levels json-patch decoded into Go maps). */
function sortTouched(v: unknown, touched: TouchTree): unknown {
  if (Array.isArray(v)) {
    return touched.children.size === 0 ? v : v.map((e, i) => {
      const child = touched.children.get(String(i));
      return child === undefined ? e : sortTouched(e, child);
    });
  }
  if (!isObject(v)) return v;
  const keys = Object.keys(v);
  if (touched.self) keys.sort();
  const out: Json = {};
  for (const k of keys) {
    const child = touched.children.get(k);
    out[k] = child === undefined ? v[k] : sortTouched(v[k], child);
  }
  return out;
}

interface TouchTree { self: boolean; readonly children: Map<string, TouchTree> }
const node = (): TouchTree => ({ self: false, children: new Map() });

function touch(tree: TouchTree, path: readonly string[]): void {
  let t = tree;
  t.self = true;
  for (const p of path) {
    let c = t.children.get(p);
    if (c === undefined) { c = node(); t.children.set(p, c); }
    c.self = true;
    t = c;
  }
}

/** A merge patch decodes the document, and each level where the patch meets an object with an object. */
function mergeTouched(tree: TouchTree, patch: unknown, current: unknown, path: string[]): void {
  touch(tree, path);
  if (!isObject(patch) || !isObject(current)) return;
  for (const [k, pv] of Object.entries(patch)) {
    if (isObject(pv) && isObject(current[k])) mergeTouched(tree, pv, current[k], [...path, k]);
  }
}

/** A JSON patch decodes the document and every container on the way to each operation's target. */
function jsonPatchTouched(tree: TouchTree, patchText: string): void {
  touch(tree, []);
  let ops: unknown;
  try { ops = JSON.parse(patchText); } catch { return; }
  if (!Array.isArray(ops)) return;
  for (const op of ops) {
    if (!isObject(op)) continue;
    for (const p of [op['path'], op['from']]) {
      if (typeof p !== 'string' || p === '') continue;
      const tokens = p.split('/').slice(1, -1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      touch(tree, tokens);
    }
  }
}

/**
 * The 422 for a patched object that failed to decode with `err`. `current` is the object the patch
 * was applied to. For JSON and merge patches the value keeps kapi's key order where kube keeps
 * the stored object's Go field order (untouched levels), so only its text may differ.
 */
export function patchedObjectInvalid(type: Exclude<PatchType, 'apply-yaml'>, err: DecodeError, patchText: string,
  current: unknown, patched: unknown, gvk: GroupVersionKind): StatusError {
  if (type === 'strategic-merge-patch') {
    let patchMap: unknown;
    try { patchMap = JSON.parse(patchText); } catch { patchMap = {}; }
    // The patched map goes through the unstructured converter, whose type errors read differently.
    const detail = err.detail.startsWith('strict decoding error') ? err.detail
      : fromUnstructuredError(patched, shapeForGVK(gvk)) ?? err.detail;
    return newInvalid({ group: '', kind: '' }, '', [invalid('patch', goFormat((patchMap ?? {}) as JsonValue), detail)]);
  }
  const tree = node();
  if (type === 'merge-patch') {
    let patch: unknown;
    try { patch = JSON.parse(patchText); } catch { patch = {}; }
    mergeTouched(tree, patch, current, []);
  } else {
    jsonPatchTouched(tree, patchText);
  }
  return newInvalid({ group: '', kind: '' }, '', [invalid('patch', stringifyJSON(sortTouched(patched, tree)), err.detail)]);
}

/**
 * Server-side apply: a merged object the unstructured converter cannot turn into its Go type
 * (a value the typed validation let through, such as a list where an IntOrString is) is a 500
 * of unknown reason, named after the applied configuration. Strict's problems pass unchanged.
 */
export function appliedObjectUnconvertible(err: DecodeError, applied: unknown, merged: unknown, gvk: GroupVersionKind): StatusError {
  if (err.detail.startsWith('strict decoding error')) return err;
  const meta = isObject(applied) && isObject(applied['metadata']) ? applied['metadata'] : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const kind = `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
  const detail = fromUnstructuredError(merged, shapeForGVK(gvk)) ?? err.detail;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '',
    message: `failed to convert new object (${str(meta['namespace'])}/${str(meta['name'])}; ${kind}) to proper version: unable to convert unstructured object to ${kind}: ${detail}` });
}
