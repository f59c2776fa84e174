// Client-side apply -> server-side apply for kubectl (lastappliedmanager.go and
// lastappliedupdater.go). When the manager is "kubectl", conflicts on fields that the
// last-applied-configuration annotation still matches are allowed (kubectl owned them via
// client-side apply), and an object that carries the annotation keeps it up to date so a
// later client-side apply still works.
// Counterpart of k8s.io/apimachinery/pkg/util/managedfields/internal/lastappliedmanager.go.
import { MAX_OBJECT_DEPTH, valueDepth } from '../json-depth.ts';
import { isJsonObject } from '../patch/json-value.ts';
import type { JsonObject } from '../patch/json-value.ts';
import { goJson } from './path-element.ts';
import type { FieldSet } from './set.ts';
import type { TypeRef } from './type-ref.ts';
import { compare, toFieldSet } from './typed.ts';

export const LAST_APPLIED_CONFIG_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** TotalAnnotationSizeLimitB of metadata validation. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(o: JsonObject): Record<string, unknown> | undefined {
  const meta = o['metadata'];
  if (!isJsonObject(meta)) return undefined;
  const a = meta['annotations'];
  return isJsonObject(a) ? a : undefined;
}

/**
 * The fields of the last-applied configuration that the live object still has unchanged;
 * undefined when there is no usable annotation (kube then keeps the conflicts).
 */
export function kubectlAllowedConflicts(live: JsonObject, apiVersion: string, type: TypeRef): FieldSet | undefined {
  const text = annotationsOf(live)?.[LAST_APPLIED_CONFIG_ANNOTATION];
  if (typeof text !== 'string' || text === '') return undefined;
  let last: unknown;
  try { last = JSON.parse(text); } catch { return undefined; }
  if (!isJsonObject(last) || last['apiVersion'] !== apiVersion) return undefined;
  // An annotation holds any JSON (256 KiB: ~50000 levels); the walks below recurse.
  if (valueDepth(last, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH) return undefined;
  try {
    const set = toFieldSet(last, type);
    const c = compare(last, live, type);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

/** After kubectl applied: refresh an existing last-applied annotation from the applied body. */
export function applyLastAppliedUpdater(object: JsonObject, patch: JsonObject): JsonObject {
  const current = annotationsOf(object)?.[LAST_APPLIED_CONFIG_ANNOTATION];
  if (typeof current !== 'string' || current === '') return object;
  const applied = structuredClone(patch);
  const appliedAnnotations = annotationsOf(applied);
  if (appliedAnnotations !== undefined) delete appliedAnnotations[LAST_APPLIED_CONFIG_ANNOTATION];
  const value = `${goJson(applied)}\n`;
  const meta = { ...(isJsonObject(object['metadata']) ? object['metadata'] : {}) };
  const annotations: JsonObject = { ...(isJsonObject(meta['annotations']) ? meta['annotations'] : {}) };
  annotations[LAST_APPLIED_CONFIG_ANNOTATION] = value;
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : '');
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_CONFIG_ANNOTATION];
  meta['annotations'] = annotations;
  return { ...object, metadata: meta };
}
