// A DeleteOptions body decoded as Go's JSON decoder fills metav1.DeleteOptions: a value of the
// wrong JSON type is a 400 with encoding/json's UnmarshalTypeError text (the first one in
// document order), null leaves a field unset, unknown fields are ignored. Without this a
// string dryRun failed as a 500 and a fractional or string gracePeriodSeconds went on to the
// registry unchecked.
import { newBadRequest } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, DeletionPropagation, Preconditions } from '../../apimachinery/meta/types.ts';

const MAX_INT64 = 2 ** 63;

/** encoding/json's name for the JSON value that did not fit (numbers carry their text). */
function jsonKind(v: unknown): string {
  if (typeof v === 'number') return `number ${String(v)}`;
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

function typeError(v: unknown, field: string, goType: string): never {
  // Only an integer target names the number's text; other targets say just "number".
  const what = typeof v === 'number' && goType !== 'int64' ? 'number' : jsonKind(v);
  throw newBadRequest(`json: cannot unmarshal ${what} into Go struct field DeleteOptions.${field} of type ${goType}`);
}

function int64(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > MAX_INT64) return typeError(v, field, 'int64');
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, v));
}

function str(v: unknown, field: string, goType = 'string'): string {
  return typeof v === 'string' ? v : typeError(v, field, goType);
}

function preconditions(v: unknown): Preconditions {
  if (typeof v !== 'object' || Array.isArray(v) || v === null) return typeError(v, 'preconditions', 'v1.Preconditions');
  const out: Preconditions = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === null) continue;
    if (k === 'uid') out.uid = str(val, 'preconditions.uid', 'types.UID');
    if (k === 'resourceVersion') out.resourceVersion = str(val, 'preconditions.resourceVersion');
  }
  return out;
}

/** The options of a decoded body object; rejects with 400 on the first field of the wrong type. */
export function decodeDeleteOptionsBody(body: Readonly<Record<string, unknown>>): DeleteOptions {
  const opts: DeleteOptions = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === null) continue;
    switch (k) {
      case 'apiVersion': case 'kind': str(v, k); break;
      case 'gracePeriodSeconds': opts.gracePeriodSeconds = int64(v, k); break;
      case 'preconditions': opts.preconditions = preconditions(v); break;
      case 'orphanDependents': opts.orphanDependents = typeof v === 'boolean' ? v : typeError(v, k, 'bool'); break;
      case 'propagationPolicy': opts.propagationPolicy = str(v, k, 'v1.DeletionPropagation') as DeletionPropagation; break;
      case 'dryRun':
        if (!Array.isArray(v)) typeError(v, k, '[]string');
        opts.dryRun = (v as unknown[]).map((d) => (d === null ? '' : str(d, k, 'string')));
        break;
      case 'ignoreStoreReadErrorWithClusterBreakingPotential':
        if (typeof v !== 'boolean') typeError(v, k, 'bool');
        break;
      default: break;
    }
  }
  return opts;
}
