// The same checks as strict-json.ts, on an already parsed value (no duplicate keys can be left):
// drops fields the shape does not know, records `unknown field` errors in key order and the first
// type mismatch, and rewrites times to the UTC form Go marshals them in. Used on the Ignore fast path (after JSON.parse), after YAML conversion, and by
// patch handlers that validate a patched object.
// Counterpart of sigs.k8s.io/json's strict decoding (as strict-json.ts), after the value is parsed.
import { goQuote } from '../goformat/index.ts';
import type { Shape } from './shape.ts';

export interface WalkResult {
  readonly unknownFields: readonly string[];
  readonly typeError: string | undefined;
}

const MAX_STRICT_ERRORS = 100;

function jsonKind(v: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': case 'bigint': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

function accepts(shape: Shape, kind: ReturnType<typeof jsonKind>): boolean {
  switch (shape.kind) {
    case 'any': case 'opaque': return true;
    case 'struct': case 'map': return kind === 'object';
    case 'slice': return kind === 'array';
    case 'scalar':
      return shape.json === 'string' ? kind === 'string'
        : shape.json === 'boolean' ? kind === 'bool' : kind === 'number';
  }
}

/**
 * Walks value against shape, deleting unknown fields (when prune is true) and canonicalizing
 * times in place.
 * Reports unknown fields with kube's paths ("spec.containers[0].foo").
 */
export function walkValue(value: unknown, shape: Shape, prune = true): WalkResult {
  const unknownFields: string[] = [];
  let typeError: string | undefined;
  const goFields: string[] = [];
  let goStruct = '';

  const mismatch = (what: string, s: Shape): void => {
    if (typeError !== undefined) return;
    const where = goStruct !== '' || goFields.length > 0 ? `Go struct field ${goStruct}.${goFields.join('.')}` : 'Go value';
    typeError = `json: cannot unmarshal ${what} into ${where} of type ${s.goName}`;
  };
  const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

  /** Checks v against s; returns v, or its canonical form where the Go type marshals it differently. */
  const visit = (v: unknown, s: Shape, path: string): unknown => {
    const kind = jsonKind(v);
    if (s.kind === 'opaque' && s.check !== undefined) {
      const error = s.check(v);
      if (error !== undefined) typeError ??= error;
      return error === undefined && s.canonical !== undefined ? s.canonical(v) : v;
    }
    if (kind === 'null' || s.kind === 'any' || s.kind === 'opaque') return v;
    if (!accepts(s, kind)) {
      mismatch(kind, s);
      return v;
    }
    if (s.kind === 'scalar') {
      if (s.check !== undefined && typeof v === 'string') {
        const error = s.check(v);
        if (error !== undefined) typeError ??= error;
      }
      if (s.json === 'integer' && typeof v === 'number' && (!Number.isInteger(v) || !fits(v, s.goName))) {
        mismatch(`number ${String(v)}`, s);
      }
      return v;
    }
    if (s.kind === 'slice') {
      const elem = s.elem();
      const arr = v as unknown[];
      arr.forEach((e, i) => {
        const next = visit(e, elem, `${path}[${i}]`);
        if (next !== e) arr[i] = next;
      });
      return v;
    }
    const obj = v as Record<string, unknown>;
    if (s.kind === 'map') {
      const valueShape = s.value();
      for (const key of Object.keys(obj)) {
        const next = visit(obj[key], valueShape, join(path, key));
        if (next !== obj[key]) obj[key] = next;
      }
      return v;
    }
    const structName = s.goName.slice(s.goName.indexOf('.') + 1);
    for (const key of Object.keys(obj)) {
      const field = s.fields(key);
      if (field === undefined) {
        if (s.preserveUnknown) continue;
        const msg = `unknown field ${goQuote(join(path, key))}`;
        if (unknownFields.length < MAX_STRICT_ERRORS && !unknownFields.includes(msg)) unknownFields.push(msg);
        if (prune) delete obj[key];
        continue;
      }
      const saved = goStruct;
      goStruct = structName;
      goFields.push(key);
      const next = visit(obj[key], field, join(path, key));
      if (next !== obj[key]) obj[key] = next;
      goFields.pop();
      goStruct = saved;
    }
    return v;
  };
  visit(value, shape, '');
  return { unknownFields, typeError };
}

function fits(n: number, goName: string): boolean {
  return goName === 'int32' ? n >= -(2 ** 31) && n < 2 ** 31 : Number.isSafeInteger(n) || Math.abs(n) < 2 ** 63;
}

