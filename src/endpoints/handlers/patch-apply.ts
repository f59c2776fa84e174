// The patch formats that need no schema: JSON patch (RFC 6902) and JSON merge patch (RFC 7386).
import fastJsonPatch from 'fast-json-patch';
import { parse as yamlParse } from 'yaml';
import { newBadRequest, StatusError } from '../../apimachinery/errors/status-error.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 7386: objects merge key by key, null deletes, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** Applies an RFC 6902 patch; a failed operation (missing path, failed test) is a 422, as kube answers. */
export function applyJSONPatch(target: unknown, patchText: string): unknown {
  let ops: unknown;
  try {
    ops = JSON.parse(patchText);
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${(err as Error).message}`);
  }
  if (!Array.isArray(ops)) throw newBadRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  try {
    const doc = structuredClone(target) as Json;
    return fastJsonPatch.applyPatch(doc, ops as fastJsonPatch.Operation[], true, true).newDocument;
  } catch (err) {
    const e = err as { name?: string; message?: string };
    const message = (e.message ?? String(err)).split('\n')[0] ?? '';
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422,
      reason: 'Invalid', message, details: { causes: [{ message }] } });
  }
}

export function parseYAMLOrJSON(raw: string, contentType: string | undefined): unknown {
  const isYAML = (contentType ?? '').toLowerCase().includes('yaml');
  try {
    return isYAML ? yamlParse(raw) : JSON.parse(raw);
  } catch (err) {
    throw newBadRequest(`couldn't parse body: ${(err as Error).message}`);
  }
}
