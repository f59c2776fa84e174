// Path elements of structured-merge-diff's fieldpath: a struct/map field, the key of an item in
// an associative list, the value of an item in a set, or a list index (never produced for
// atomic lists, kept for decoding). Their order, their FieldsV1 keys ("f:", "k:", "v:", "i:")
// and their printed form (".spec.replicas", `[name="c"]`) must match kube byte for byte,
// because managedFields and apply conflict messages expose them.
// Counterpart of sigs.k8s.io/structured-merge-diff/v6/fieldpath/element.go.
import type { JsonObject, JsonValue } from '../patch/json-value.ts';
import { compareGoStrings, isJsonObject } from '../patch/json-value.ts';

export interface KeyField { readonly name: string; readonly value: JsonValue }

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const fieldElement = (name: string): PathElement => ({ kind: 'field', name });
export const valueElement = (value: JsonValue): PathElement => ({ kind: 'value', value });
export const indexElement = (index: number): PathElement => ({ kind: 'index', index });
/** A key element; fields are sorted by name as kube does. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a.name, b.name)) };
}

/** Go's strings.Compare: byte order of the UTF-8 encoding. */
export const compareStrings = compareGoStrings;

const rank = (v: JsonValue): number => {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null) return 4;
  return 5;
};

/** value.Compare: numbers < strings < bools < lists < maps < null. */
function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; ; i++) {
      if (i >= a.length && i >= b.length) return 0;
      if (i >= a.length) return -1;
      if (i >= b.length) return 1;
      const c = compareValues(a[i] ?? null, b[i] ?? null);
      if (c !== 0) return c;
    }
  }
  if (isJsonObject(a) && isJsonObject(b)) return compareMaps(a, b);
  return 0;
}

function compareMaps(a: JsonObject, b: JsonObject): number {
  const la = Object.keys(a).length;
  const lb = Object.keys(b).length;
  if (la === 0 && lb === 0) return 0;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareStrings);
  let i = 0;
  for (const k of keys) {
    let c: number;
    if (i === la) c = -1;
    else if (i === lb) c = 1;
    else if (!Object.hasOwn(a, k)) c = 1;
    else if (!Object.hasOwn(b, k)) c = -1;
    else c = compareValues(a[k] ?? null, b[k] ?? null);
    i++;
    if (c !== 0) return c;
  }
  return 0;
}

export function compareElements(a: PathElement, b: PathElement): number {
  const order = { field: 0, key: 1, value: 2, index: 3 } as const;
  if (a.kind !== b.kind) return order[a.kind] < order[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field': return compareStrings(a.name, (b as typeof a).name);
    case 'key': {
      const bf = (b as typeof a).fields;
      for (let i = 0; ; i++) {
        const x = a.fields[i];
        const y = bf[i];
        if (x === undefined && y === undefined) return 0;
        if (x === undefined) return -1;
        if (y === undefined) return 1;
        const c = compareStrings(x.name, y.name) || compareValues(x.value, y.value);
        if (c !== 0) return c;
      }
    }
    case 'value': return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const bi = (b as typeof a).index;
      return a.index < bi ? -1 : a.index > bi ? 1 : 0;
    }
  }
}

export const elementsEqual = (a: PathElement, b: PathElement): boolean => compareElements(a, b) === 0;

/** JSON as Go's encoding/json writes it: HTML-significant characters escaped, map keys sorted. */
export function goJson(v: JsonValue): string {
  if (isJsonObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `{${keys.map((k) => `${goJson(k)}:${goJson(v[k] ?? null)}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  return JSON.stringify(v)
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The FieldsV1 key of an element: f:name, k:{"name":"c"}, v:"x", i:0. */
export function serializeElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field': return `f:${pe.name}`;
    case 'key': return `k:{${pe.fields.map((f) => `${goJson(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value': return `v:${goJson(pe.value)}`;
    case 'index': return `i:${pe.index}`;
  }
}

/** Parses a FieldsV1 key. Returns undefined for an unknown prefix (kube skips those); throws on malformed input. */
export function deserializeElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new Error(`key must be 2 characters long: ${s}`);
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f': return fieldElement(rest);
    case 'v': return valueElement(JSON.parse(rest) as JsonValue);
    case 'k': {
      const parsed = JSON.parse(rest) as unknown;
      if (!isJsonObject(parsed)) throw new Error(`key element must be a JSON object: ${s}`);
      return keyElement(Object.entries(parsed).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest)) throw new Error(`invalid index: ${s}`);
      return indexElement(Number.parseInt(rest, 10));
    }
    default: return undefined;
  }
}

/** value.ToString: how values appear inside printed paths. */
function valueToString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueToString).join(',')}]`;
  return Object.keys(v).sort(compareStrings).map((k) => `${k}=${valueToString(v[k] ?? null)}`).join('');
}

export function elementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field': return `.${pe.name}`;
    case 'key': return `[${pe.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
    case 'value': return `[=${valueToString(pe.value)}]`;
    case 'index': return `[${pe.index}]`;
  }
}

/** Path.String: ".spec.containers[name=\"c\"].image". */
export const pathToString = (p: Path): string => p.map(elementToString).join('');
