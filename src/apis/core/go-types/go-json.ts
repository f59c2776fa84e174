// A v1 object as encoding/json prints kube's internal value of it. Several of kube's messages carry
// that text: the pod, PV and PVC "may not change" errors end with util/diff.Diff of the indented
// JSON (json.MarshalIndent with a one-space indent), a Job's immutable template is the compact JSON.
// The internal types carry no JSON tags, so every field is printed under its Go name, in
// declaration order, with its zero value when unset (null for pointers, slices and maps); embedded
// structs are inlined. The diff's hunk headers count lines from the top, so every struct that
// precedes a change must print exactly; types not listed fall back to their wire JSON with the
// keys capitalised.
// Counterpart of encoding/json printing the internal types of k8s.io/kubernetes pkg/apis/core.
import { goEscapeJSON } from '../../../apimachinery/runtime/serializer/json.ts';
import { unifiedDiff } from '../../../apimachinery/goformat/index.ts';
import { canonicalQuantityText } from '../../../apimachinery/resource/quantity.ts';
import { objectMetaJSON } from '../../../apimachinery/meta/object-meta-json.ts';
import { POD_TYPES } from './pod-types.ts';
import { STORAGE_TYPES } from './storage-types.ts';

/** The v1 JSON names that do not follow from the Go name, wherever they appear. */
const WIRE_NAMES: Readonly<Record<string, string>> = { CephFS: 'cephfs', StorageOS: 'storageos' };

/** A Go field name's JSON tag: the leading capitals lower-cased (but the first letter of the next word). */
function wireName(go: string): string {
  const known = WIRE_NAMES[go];
  if (known !== undefined) return known;
  const caps = /^[A-Z]+/.exec(go)?.[0] ?? '';
  const lower = caps.length > 1 && caps.length < go.length ? caps.length - 1 : caps.length;
  return go.slice(0, lower).toLowerCase() + go.slice(lower);
}

interface Field { readonly go: string; readonly wire: string; readonly type: string; readonly embedded: boolean }

function parseFields(spec: string): readonly Field[] {
  return spec.split(' ').map((f): Field => {
    if (f.startsWith('...')) return { go: f.slice(3), wire: '', type: f.slice(3), embedded: true };
    const [name = '', type = ''] = f.split(':');
    const [go = '', wire = wireName(go)] = name.split('=');
    return { go, wire, type, embedded: false };
  });
}

const FIELDS = new Map<string, readonly Field[]>(Object.entries({ ...POD_TYPES, ...STORAGE_TYPES }).map(([name, spec]) => [name, parseFields(spec)]));

/** A JSON value with its object keys in order (Go's order, not JavaScript's). */
export type GoNode = null | boolean | number | string | readonly GoNode[] | { readonly fields: readonly (readonly [string, GoNode])[] };

type Json = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const capitalised = (k: string): string => k.charAt(0).toUpperCase() + k.slice(1);

/** A type not listed: its wire JSON with capitalised keys (maps would keep theirs; close enough). */
function fallback(v: unknown): GoNode {
  if (Array.isArray(v)) return v.map(fallback);
  if (isObj(v)) return { fields: Object.entries(v).map(([k, x]) => [capitalised(k), fallback(x)] as const) };
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** Wire JSON as it is (a value with JSON tags), keys in the order given. */
function wire(v: unknown): GoNode {
  if (Array.isArray(v)) return v.map(wire);
  if (isObj(v)) return { fields: Object.entries(v).map(([k, x]) => [k, wire(x)] as const) };
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

const sortedMap = (v: Json, each: (x: unknown) => GoNode): GoNode => ({ fields: Object.keys(v).sort().map((k) => [k, each(v[k])] as const) });

function objectMetaEntries(m: Json): (readonly [string, GoNode])[] {
  return Object.entries(objectMetaJSON(m)).map(([k, v]) => [k, wire(v)] as const);
}

/** metav1.LabelSelector: its JSON tags, empty fields left out. */
function labelSelector(o: Json): GoNode {
  const entries: (readonly [string, GoNode])[] = [];
  const labels = o['matchLabels'];
  if (isObj(labels) && Object.keys(labels).length > 0) entries.push(['matchLabels', sortedMap(labels, (x) => String(x))]);
  const exprs = o['matchExpressions'];
  if (Array.isArray(exprs) && exprs.length > 0) {
    entries.push(['matchExpressions', exprs.map((e): GoNode => {
      const r = isObj(e) ? e : {};
      const values = r['values'];
      return { fields: [['key', goNode(r['key'], 'string')], ['operator', goNode(r['operator'], 'string')],
        ...(Array.isArray(values) && values.length > 0 ? [['values', goNode(values, '[]string')] as const] : [])] };
    })]);
  }
  return { fields: entries };
}

/** A Quantity marshals to the text ParseQuantity kept, else its canonical text. */
const quantity = (v: unknown): GoNode => (typeof v === 'string' || typeof v === 'number' ? canonicalQuantityText(v) ?? String(v) : '0');

/** The internal value of `v` (v1 JSON) as the Go type `type` of the tables. */
export function goNode(v: unknown, type: string): GoNode {
  if (type.startsWith('[]')) return Array.isArray(v) ? v.map((x) => goNode(x, type.slice(2))) : null;
  if (type.startsWith('*')) return v === undefined || v === null ? null : goNode(v, type.slice(1));
  switch (type) {
    case 'string': return typeof v === 'string' ? v : '';
    case 'bool': return v === true;
    case 'int32': case 'int64': return typeof v === 'number' ? v : 0;
    case 'intstr': return typeof v === 'string' || typeof v === 'number' ? v : 0;
    case 'quantity': return quantity(v);
    // Go sorts map keys
    case 'map': return isObj(v) ? sortedMap(v, (x) => String(x)) : null;
    case 'rlist': return isObj(v) ? sortedMap(v, quantity) : null;
    case 'selector': return labelSelector(isObj(v) ? v : {});
    default: break;
  }
  const fields = FIELDS.get(type);
  if (fields === undefined) return fallback(v);
  return { fields: structEntries(isObj(v) ? v : {}, fields) };
}

function structEntries(o: Json, fields: readonly Field[]): (readonly [string, GoNode])[] {
  return fields.flatMap((f) => {
    // an embedded metav1.ObjectMeta keeps its JSON tags; the v1 object holds it under metadata
    if (f.embedded && f.type === 'ObjectMeta') return objectMetaEntries(isObj(o['metadata']) ? o['metadata'] : {});
    if (f.embedded) return structEntries(o, FIELDS.get(f.type) ?? []);
    return [[f.go, goNode(o[f.wire], f.type)] as const];
  });
}

/** json.MarshalIndent with no prefix and a one-space indent. */
function indented(n: GoNode, depth: number): string {
  const pad = ' '.repeat(depth + 1);
  const end = ' '.repeat(depth);
  if (Array.isArray(n)) return n.length === 0 ? '[]' : `[\n${n.map((x: GoNode) => pad + indented(x, depth + 1)).join(',\n')}\n${end}]`;
  if (n !== null && typeof n === 'object' && 'fields' in n) {
    if (n.fields.length === 0) return '{}';
    return `{\n${n.fields.map(([k, x]) => `${pad}${goEscapeJSON(JSON.stringify(k))}: ${indented(x, depth + 1)}`).join(',\n')}\n${end}}`;
  }
  return goEscapeJSON(JSON.stringify(n));
}

/** json.Marshal: compact. */
function compact(n: GoNode): string {
  if (Array.isArray(n)) return `[${n.map((x: GoNode) => compact(x)).join(',')}]`;
  if (n !== null && typeof n === 'object' && 'fields' in n) return `{${n.fields.map(([k, x]) => `${goEscapeJSON(JSON.stringify(k))}:${compact(x)}`).join(',')}}`;
  return goEscapeJSON(JSON.stringify(n));
}

function plain(n: GoNode): unknown {
  if (Array.isArray(n)) return n.map((x: GoNode) => plain(x));
  if (n !== null && typeof n === 'object' && 'fields' in n) return Object.fromEntries(n.fields.map(([k, x]) => [k, plain(x)]));
  return n;
}

/** The internal value of a v1 value as a plain object (for a message that embeds it in more JSON). */
export const goPlainValue = (v: unknown, type: string): unknown => plain(goNode(v, type));

/** json.MarshalIndent(internal value, "", " ") of a v1 value. */
export const goIndentedJSON = (v: unknown, type: string): string => indented(goNode(v, type), 0);

/** json.Marshal(internal value) of a v1 value. */
export const goCompactJSON = (v: unknown, type: string): string => compact(goNode(v, type));

/** util/diff.Diff(old, new) of two v1 values of one internal type; '' when they print the same. */
export function goDiff(prev: unknown, next: unknown, type: string): string {
  return unifiedDiff(goIndentedJSON(prev, type), goIndentedJSON(next, type));
}
