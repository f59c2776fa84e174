// RFC 6902 JSON patch with the semantics of gopkg.in/evanphx/json-patch.v4, which kube applies
// (patch.go: jsonpatch.DecodePatch, then Patch.Apply). Its departures from the RFC are kept:
// "replace" of a missing object key adds it, "copy" from a missing object key copies null,
// "test" of a missing key against null passes, negative array indices count from the end,
// "replace" of the whole document with a scalar does nothing. Each failure carries
// evanphx's message (github.com/pkg/errors wrapping: "context: cause").

import { setKey } from '../../apimachinery/patch/index.ts';

type Container = Record<string, unknown> | unknown[];

/** A failed operation; message is evanphx's error text. */
export class JSONPatchError extends Error {
  override readonly name = 'JSONPatchError';
}

const ERR_TEST_FAILED = 'test failed';
const ERR_MISSING = 'missing value';
const ERR_INVALID_INDEX = 'invalid index referenced';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Record<string, unknown>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * kube-apiserver's JSONPatchMaxCopyBytes (3 MiB): the most that the "copy" operations of one
 * patch may add in total, counted as evanphx v4 does (AccumulatedCopySizeLimit).
 */
const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

/**
 * The length of Go's json.Marshal of a JSON value (deepCopy's size): the compact UTF-8 form,
 * where <, > and & are written as \u003c... and U+2028/U+2029 as \u2028 (6 bytes each).
 */
function goJSONSize(text: string): number {
  let extra = 0;
  for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i + 1)) extra += 5;
  for (let i = text.indexOf('>'); i !== -1; i = text.indexOf('>', i + 1)) extra += 5;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) extra += 5;
  for (let i = text.indexOf('\u2028'); i !== -1; i = text.indexOf('\u2028', i + 1)) extra += 3;
  for (let i = text.indexOf('\u2029'); i !== -1; i = text.indexOf('\u2029', i + 1)) extra += 3;
  return Buffer.byteLength(text, 'utf8') + extra;
}

function wrap(message: string, cause: string): JSONPatchError {
  return new JSONPatchError(`${message}: ${cause}`);
}

/** strconv.Atoi: an optionally signed run of decimal digits. */
function atoi(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw new JSONPatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  const n = Number(key);
  if (!Number.isSafeInteger(n)) throw new JSONPatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: value out of range`);
  return n;
}

const invalidIndex = (idx: number): JSONPatchError => wrap(`Unable to access invalid index: ${idx}`, ERR_INVALID_INDEX);

/** partialDoc.get / partialArray.get: undefined for a missing object key; throws for a bad index. */
function get(con: Container, key: string): unknown {
  if (!Array.isArray(con)) return has(con, key) ? con[key] : undefined;
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -con.length) throw invalidIndex(idx);
    idx += con.length;
  }
  if (idx >= con.length) throw invalidIndex(idx);
  return con[idx];
}

function add(con: Container, key: string, val: unknown): void {
  if (!Array.isArray(con)) { setKey(con, key, val); return; }
  if (key === '-') { con.push(val); return; }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (err) {
    throw wrap(`value was not a proper array index: '${key}'`, (err as Error).message);
  }
  const size = con.length + 1;
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  con.splice(idx, 0, val);
}

function remove(con: Container, key: string): void {
  if (!Array.isArray(con)) {
    if (!has(con, key)) throw wrap(`Unable to remove nonexistent key: ${key}`, ERR_MISSING);
    delete con[key];
    return;
  }
  let idx = atoi(key);
  if (idx >= con.length) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -con.length) throw invalidIndex(idx);
    idx += con.length;
  }
  con.splice(idx, 1);
}

/** For "replace" only: the key exists (get succeeded). */
function set(con: Container, key: string, val: unknown): void {
  if (!Array.isArray(con)) { setKey(con, key, val); return; }
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -con.length) throw invalidIndex(idx);
    idx += con.length;
  }
  con[idx] = val;
}

const decodeKey = (k: string): string => k.replace(/~1|~0/g, (m) => (m === '~1' ? '/' : '~'));

/** findObject: the container holding the path's last token, or undefined when any step is missing. */
function findObject(doc: Container, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let cur: Container = doc;
  for (const part of split.slice(1, -1)) {
    let next: unknown;
    try {
      next = get(cur, decodeKey(part));
    } catch {
      return undefined;
    }
    if (Array.isArray(next) || isObject(next)) cur = next;
    else return undefined;
  }
  return { con: cur, key: decodeKey(split[split.length - 1] ?? '') };
}

/** JSON equality (lazyNode.equal). */
function equal(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => has(b, k) && equal(a[k], b[k]));
  }
  return a === b || (a === undefined && b === null) || (a === null && b === undefined);
}

type Operation = Record<string, unknown>;

/** Operation.Path / From: the string, or an error text when absent, null or not a string. */
function field(op: Operation, name: 'path' | 'from'): { value: string } | { error: string } {
  const v = op[name];
  if (v === undefined || v === null) {
    return { error: `operation${name === 'path' ? ' missing path field' : ', missing from field'}: ${ERR_MISSING}` };
  }
  if (typeof v !== 'string') return { error: `json: cannot unmarshal ${goJSONType(v)} into Go value of type string` };
  return { value: v };
}

/** The JSON type names encoding/json's UnmarshalTypeError uses. */
export function goJSONType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'object': return 'object';
    case 'boolean': return 'bool';
    case 'number': return 'number';
    default: return 'string';
  }
}

// An absent "value" is a nil node, which Go marshals as null.
const valueOf = (op: Operation): unknown => (op['value'] === undefined ? null : structuredClone(op['value']));

interface PatchState { root: Container; copied: number; readonly maxCopyBytes: number }

function applyOp(doc: PatchState, op: Operation): void {
  const kind = typeof op['op'] === 'string' ? op['op'] : 'unknown';
  switch (kind) {
    case 'add': {
      const p = field(op, 'path');
      if ('error' in p) throw wrap('add operation failed to decode path', ERR_MISSING);
      const f = findObject(doc.root, p.value);
      if (f === undefined) throw wrap(`add operation does not apply: doc is missing path: "${p.value}"`, ERR_MISSING);
      try { add(f.con, f.key, valueOf(op)); } catch (err) { throw wrap(`error in add for path: '${p.value}'`, (err as Error).message); }
      return;
    }
    case 'remove': {
      const p = field(op, 'path');
      if ('error' in p) throw wrap('remove operation failed to decode path', ERR_MISSING);
      const f = findObject(doc.root, p.value);
      if (f === undefined) throw wrap(`remove operation does not apply: doc is missing path: "${p.value}"`, ERR_MISSING);
      try { remove(f.con, f.key); } catch (err) { throw wrap(`error in remove for path: '${p.value}'`, (err as Error).message); }
      return;
    }
    case 'replace': {
      const p = field(op, 'path');
      if ('error' in p) throw wrap('replace operation failed to decode path', p.error);
      if (p.value === '') {
        // errors.Wrapf(nil, ...) is nil: a scalar value leaves the document as it is.
        const v = valueOf(op);
        if (Array.isArray(v) || isObject(v)) doc.root = v;
        return;
      }
      const f = findObject(doc.root, p.value);
      if (f === undefined) throw wrap(`replace operation does not apply: doc is missing path: ${p.value}`, ERR_MISSING);
      try { get(f.con, f.key); } catch { throw wrap(`replace operation does not apply: doc is missing key: ${p.value}`, ERR_MISSING); }
      try { set(f.con, f.key, valueOf(op)); } catch (err) { throw wrap(`error in remove for path: '${p.value}'`, (err as Error).message); }
      return;
    }
    case 'move': {
      const from = field(op, 'from');
      if ('error' in from) throw wrap('move operation failed to decode from', from.error);
      const src = findObject(doc.root, from.value);
      if (src === undefined) throw wrap(`move operation does not apply: doc is missing from path: ${from.value}`, ERR_MISSING);
      let val: unknown;
      try {
        val = get(src.con, src.key);
        remove(src.con, src.key);
      } catch (err) {
        throw wrap(`error in move for path: '${src.key}'`, (err as Error).message);
      }
      const p = field(op, 'path');
      if ('error' in p) throw wrap('move operation failed to decode path', p.error);
      const dst = findObject(doc.root, p.value);
      if (dst === undefined) throw wrap(`move operation does not apply: doc is missing destination path: ${p.value}`, ERR_MISSING);
      try { add(dst.con, dst.key, val); } catch (err) { throw wrap(`error in move for path: '${p.value}'`, (err as Error).message); }
      return;
    }
    case 'test': {
      const p = field(op, 'path');
      if ('error' in p) throw wrap('test operation failed to decode path', p.error);
      const failed = wrap(`testing value ${p.value} failed`, ERR_TEST_FAILED);
      if (p.value === '') {
        if (op['value'] !== undefined && equal(doc.root, op['value'])) return;
        throw failed;
      }
      const f = findObject(doc.root, p.value);
      if (f === undefined) throw wrap(`test operation does not apply: is missing path: ${p.value}`, ERR_MISSING);
      let val: unknown;
      try { val = get(f.con, f.key); } catch (err) { throw wrap(`error in test for path: '${p.value}'`, (err as Error).message); }
      if (val === undefined) {
        if (op['value'] === null) return;
        throw failed;
      }
      if (op['value'] === undefined || !equal(val, op['value'])) throw failed;
      return;
    }
    case 'copy': {
      const from = field(op, 'from');
      if ('error' in from) throw wrap('copy operation failed to decode from', from.error);
      const src = findObject(doc.root, from.value);
      if (src === undefined) throw wrap(`copy operation does not apply: doc is missing from path: ${from.value}`, ERR_MISSING);
      let val: unknown;
      try { val = get(src.con, src.key); } catch (err) { throw wrap(`error in copy for from: '${from.value}'`, (err as Error).message); }
      const p = field(op, 'path');
      if ('error' in p) throw wrap('copy operation failed to decode path', ERR_MISSING);
      const dst = findObject(doc.root, p.value);
      if (dst === undefined) throw wrap(`copy operation does not apply: doc is missing destination path: ${p.value}`, ERR_MISSING);
      // A missing object key copies as null (deepCopy of a nil node), adding nothing to the count.
      // The size is checked before the copy is made, so a copy bomb stops at the limit.
      let copied: unknown = null;
      if (val !== undefined) {
        const text = JSON.stringify(val);
        doc.copied += goJSONSize(text);
        if (doc.copied > doc.maxCopyBytes) {
          throw new JSONPatchError(`Unable to complete the copy, the accumulated size increase of copy is ${doc.copied}, exceeding the limit ${doc.maxCopyBytes}`);
        }
        copied = JSON.parse(text);
      }
      try { add(dst.con, dst.key, copied); } catch (err) { throw wrap('error while adding value during copy', (err as Error).message); }
      return;
    }
    default:
      throw new JSONPatchError(`Unexpected kind: ${kind}`);
  }
}

/**
 * Patch.Apply: applies decoded operations (each an object, or null) to a copy of doc, which must
 * be a JSON object or array. Throws JSONPatchError at the first failing operation, and when the
 * values copied add up to more than maxCopyBytes.
 */
export function applyJSONPatchOps(doc: Container, ops: readonly unknown[], maxCopyBytes = JSON_PATCH_MAX_COPY_BYTES): Container {
  const state: PatchState = { root: structuredClone(doc), copied: 0, maxCopyBytes };
  for (const op of ops) applyOp(state, isObject(op) ? op : {});
  return state.root;
}

/**
 * applyJSONPatchOps for requests: `pause` runs after every operation and returns a promise when
 * it wants the event loop to run (every N operations; it may reject to stop a timed-out request).
 */
export async function applyJSONPatchOpsPaced(doc: Container, ops: readonly unknown[],
  pause: () => Promise<void> | undefined, maxCopyBytes = JSON_PATCH_MAX_COPY_BYTES): Promise<Container> {
  const state: PatchState = { root: structuredClone(doc), copied: 0, maxCopyBytes };
  for (const op of ops) {
    applyOp(state, isObject(op) ? op : {});
    const p = pause();
    if (p !== undefined) await p;
  }
  return state.root;
}
