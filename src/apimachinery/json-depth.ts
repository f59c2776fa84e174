// Nesting depth of JSON values, measured without recursion, and kapi's cap on it.
//
// kube-apiserver's decoders (encoding/json, sigs.k8s.io/json) refuse documents nested more than
// 10000 levels deep; Go's goroutine stacks grow, so every later step copes with that depth. Node
// has one fixed stack (~1 MB by default): JSON.stringify overflows at a few thousand levels,
// structuredClone at under 2000, and the recursive steps of the write path (validation, schema
// pruning and defaulting, patches, managedFields) at less. So kapi refuses objects nested deeper
// than MAX_OBJECT_DEPTH, an intended difference from kube, checked here before anything
// recursive sees the value.
import { newBadRequest, StatusError } from './errors/status-error.ts';

/** encoding/json's maxNestingDepth: the deepest document kube's decoders accept. */
export const GO_JSON_MAX_DEPTH = 10000;

/**
 * The deepest object kapi stores: every step of the request pipeline handles this depth on
 * Node's default stack with at least a twofold margin (measured by hand, see the report of
 * issue 9). Objects and arrays count one level each; the top-level object is level 1.
 */
export const MAX_OBJECT_DEPTH = 500;

/**
 * How much deeper than the rest of an object its metadata.managedFields may nest: fieldsV1
 * mirrors the object's fields five levels further down (metadata, the list, the entry,
 * fieldsV1), so the answer to a write at MAX_OBJECT_DEPTH can be sent back unchanged.
 */
const MANAGED_FIELDS_EXTRA_DEPTH = 8;

/**
 * The depth a decoder may reach before the exact check (objectTooDeep) runs on its result:
 * managedFields included. Every recursive decoder stops here.
 */
export const MAX_DECODE_DEPTH = MAX_OBJECT_DEPTH + MANAGED_FIELDS_EXTRA_DEPTH;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether an object (or any JSON value) nests deeper than MAX_OBJECT_DEPTH, its
 * metadata.managedFields deeper than MAX_DECODE_DEPTH.
 */
export function objectTooDeep(value: unknown): boolean {
  const meta = isRecord(value) ? value['metadata'] : undefined;
  if (!isRecord(value) || !isRecord(meta) || !Object.hasOwn(meta, 'managedFields')) {
    return valueDepth(value, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH;
  }
  const { managedFields, ...rest } = meta;
  // managedFields sits at level 3 (object, metadata, the list).
  if (valueDepth(managedFields, MAX_DECODE_DEPTH) + 2 > MAX_DECODE_DEPTH) return true;
  return valueDepth({ ...value, metadata: rest }, MAX_OBJECT_DEPTH) > MAX_OBJECT_DEPTH;
}

/**
 * The nesting depth of a JSON value: 0 for a scalar, 1 for an object or array of scalars.
 * Stops counting once the depth exceeds `stopAbove` (and returns a depth above it).
 */
export function valueDepth(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  if (typeof value !== 'object' || value === null) return 0;
  let max = 0;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const d = depths.pop() ?? 0;
    if (d > max) {
      max = d;
      if (max > stopAbove) return max;
    }
    const children: readonly unknown[] = Array.isArray(v) ? v : Object.values(v as object);
    for (const c of children) {
      if (typeof c === 'object' && c !== null) { values.push(c); depths.push(d + 1); }
    }
  }
  return max;
}

/** The text of kapi's refusal: names the limit. */
export function tooDeepMessage(what: string): string {
  return `${what} is nested more than ${MAX_OBJECT_DEPTH} levels deep, the maximum nesting depth of objects and arrays this server accepts`;
}

/** Throws 400 BadRequest when a request body's value is nested deeper than MAX_OBJECT_DEPTH. */
export function checkBodyDepth(value: unknown, what = 'the request body'): void {
  if (objectTooDeep(value)) throw newBadRequest(tooDeepMessage(what));
}

/**
 * Throws 422 Invalid when the object a patch produced is nested deeper than MAX_OBJECT_DEPTH
 * (kube answers 422 when a patched object cannot be decoded).
 */
export function checkPatchedDepth(value: unknown): void {
  if (!objectTooDeep(value)) return;
  throw new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422, reason: 'Invalid',
    message: tooDeepMessage('the patched object'),
  });
}

/** Whether err is V8's stack overflow (a RangeError "Maximum call stack size exceeded"). */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && err.message.includes('call stack');
}

interface Frame {
  readonly isArray: boolean;
  readonly keys: readonly string[];
  readonly container: Record<string, unknown> | readonly unknown[];
  index: number;
  wrote: boolean;
}

/**
 * JSON.stringify for data of any depth: the native one, and where that overflows the stack
 * (objects far deeper than MAX_OBJECT_DEPTH, e.g. stored by an older build), an iterative
 * writer with the same output for JSON data (toJSON is honoured; undefined, functions and
 * symbols are dropped from objects and become null in arrays).
 */
export function stringifyJSON(value: unknown): string {
  try {
    return JSON.stringify(value) as string | undefined ?? 'null';
  } catch (err) {
    if (!isStackOverflow(err)) throw err;
    return stringifyDeep(value);
  }
}

const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function toJSONValue(v: unknown, key: string): unknown {
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  return v;
}

function stringifyDeep(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  // Writes a scalar, or opens a container (pushes its frame).
  const open = (raw: unknown, key: string): void => {
    const v = toJSONValue(raw, key);
    if (typeof v !== 'object' || v === null) {
      out.push(skipped(v) ? 'null' : JSON.stringify(v));
      return;
    }
    const isArray = Array.isArray(v);
    out.push(isArray ? '[' : '{');
    stack.push({ isArray, keys: isArray ? [] : Object.keys(v), container: v as Record<string, unknown>, index: 0, wrote: false });
  };
  open(root, '');
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as Frame;
    if (f.isArray) {
      const arr = f.container as readonly unknown[];
      if (f.index >= arr.length) { out.push(']'); stack.pop(); continue; }
      if (f.index > 0) out.push(',');
      const i = f.index++;
      open(arr[i], String(i));
      continue;
    }
    const obj = f.container as Record<string, unknown>;
    if (f.index >= f.keys.length) { out.push('}'); stack.pop(); continue; }
    const k = f.keys[f.index++] as string;
    const v = toJSONValue(obj[k], k);
    if (skipped(v)) continue;
    if (f.wrote) out.push(',');
    f.wrote = true;
    out.push(JSON.stringify(k), ':');
    open(v, k);
  }
  return out.join('');
}
