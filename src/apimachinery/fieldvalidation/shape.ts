// What a value is decoded into, derived from its OpenAPI schema, in the terms of Go's JSON
// decoder: a struct (named fields; other keys are unknown), a map (any key, one value shape),
// a slice, a scalar, an opaque value (a Go type with its own UnmarshalJSON, which sees the raw
// bytes: no strict checks inside), or `any` (interface{}: keys kept, duplicates still checked).
// Counterpart of the struct/map decoding of sigs.k8s.io/json/internal/golang/encoding/json.
import { getDefinitions } from '../openapi/definitions.ts';
import { unmarshalGoTime, type TimeLayout } from './go-time.ts';
import type { Definitions, SchemaNode } from '../openapi/types.ts';
import { canonicalQuantityText, goParseQuantity, QUANTITY_FORMAT_ERROR } from '../resource/quantity.ts';
import { goBase64Error } from './go-base64.ts';

export type Shape =
  | { readonly kind: 'struct'; readonly goName: string; readonly fields: (name: string) => Shape | undefined;
      readonly preserveUnknown: boolean }
  | { readonly kind: 'map'; readonly goName: string; readonly value: () => Shape }
  | { readonly kind: 'slice'; readonly goName: string; readonly elem: () => Shape }
  | { readonly kind: 'scalar'; readonly goName: string; readonly json: 'string' | 'number' | 'integer' | 'boolean';
      /** A check of the string beyond its JSON type (a []byte field's base64). */
      readonly check?: (v: string) => string | undefined }
  | { readonly kind: 'opaque'; readonly goName: string; readonly check?: (v: unknown) => string | undefined;
      /** The value as the Go type marshals it back, for a value check accepted (a UTC time). */
      readonly canonical?: (v: unknown) => unknown;
      /**
       * check and canonical see a JSON number as its text ("1e21", not the float 1e+21): the Go
       * type's UnmarshalJSON reads the raw bytes. Only a decoder that has the text can honour it.
       */
      readonly rawNumber?: boolean }
  | { readonly kind: 'any'; readonly goName: string };

/** Definitions whose Go type decodes itself (json.Unmarshaler): their contents are not checked. */
const OPAQUE = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
]);

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

export const ANY: Shape = { kind: 'any', goName: 'interface {}' };

/**
 * The text Quantity.UnmarshalJSON parses: the raw JSON with its quotes cut and strings.TrimSpace
 * applied. Characters JSON must escape (tab, newline, quote, backslash...) reach ParseQuantity as
 * their escape sequence, so they are not space to it: only a literal space or a Unicode space is.
 */
function quantityText(v: string | number): string {
  if (typeof v === 'number') return JSON.stringify(v);
  if (/[\u0000-\u001f"\\]/.test(v)) return `\\${v}`; // any escape makes the text malformed
  return v.replace(/^[ \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[ \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}

/** resource.Quantity's UnmarshalJSON errors (ParseQuantity's ErrFormatWrong / ErrSuffix / ErrNumeric). */
export function checkQuantity(v: unknown): string | undefined {
  if (v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') return QUANTITY_FORMAT_ERROR;
  const r = goParseQuantity(quantityText(v));
  return 'error' in r ? r.error : undefined;
}

/** intstr.IntOrString's UnmarshalJSON: a string, or else an int32. */
export function checkIntOrString(v: unknown): string | undefined {
  if (v === null || typeof v === 'string') return undefined;
  if (typeof v === 'number') {
    return Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31 ? undefined
      : `json: cannot unmarshal number ${String(v)} into Go value of type int32`;
  }
  const what = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : 'object';
  return `json: cannot unmarshal ${what} into Go value of type int32`;
}

const timeShape = (goName: string, layout: TimeLayout): Shape => ({
  kind: 'opaque', goName,
  check: (v) => { const r = unmarshalGoTime(v, layout); return r === undefined || r.ok ? undefined : r.error; },
  canonical: (v) => { const r = unmarshalGoTime(v, layout); return r?.ok === true ? r.value : v; },
});

const OPAQUE_SHAPES: Readonly<Record<string, Shape>> = {
  // a Quantity is stored and returned as kube marshals it back ("1.5" is "1500m", "1024Mi" is "1Gi")
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { kind: 'opaque', goName: 'resource.Quantity', check: checkQuantity, rawNumber: true,
    canonical: (v) => (typeof v === 'string' || typeof v === 'number' ? canonicalQuantityText(quantityText(v)) ?? v : v) },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { kind: 'opaque', goName: 'intstr.IntOrString', check: checkIntOrString },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': timeShape('v1.Time', 'time'),
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': timeShape('v1.MicroTime', 'microtime'),
};

/** "v1.PodSpec" for "io.k8s.api.core.v1.PodSpec": the Go package and type name. */
function goTypeName(definition: string): string {
  const parts = definition.split('.');
  return parts.slice(-2).join('.');
}

const cache = new WeakMap<SchemaNode, Shape>();

/** The Shape of a schema node; undefined schema means interface{}. */
export function shapeOf(node: SchemaNode | undefined, defs: Definitions = getDefinitions()): Shape {
  if (node === undefined) return ANY;
  const hit = cache.get(node);
  if (hit !== undefined) return hit;
  const s = computeShape(node, defs);
  cache.set(node, s);
  return s;
}

function computeShape(node: SchemaNode, defs: Definitions): Shape {
  if (node.$ref !== undefined) {
    const name = node.$ref;
    if (OPAQUE.has(name)) return OPAQUE_SHAPES[name] ?? { kind: 'opaque', goName: goTypeName(name) };
    const target = defs[name];
    if (target === undefined) return ANY;
    const inner = shapeOf(target, defs);
    return inner.kind === 'struct' ? { ...inner, goName: goTypeName(name) } : inner;
  }
  if (node['x-kubernetes-int-or-string'] === true) return { kind: 'opaque', goName: 'intstr.IntOrString', check: checkIntOrString };
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;
  switch (node.type) {
    case 'object': {
      const props = node.properties;
      const ap = node.additionalProperties;
      if (props === undefined && !embedded) {
        if (typeof ap === 'object') {
          const value = ap;
          const v = (): Shape => shapeOf(value, defs);
          return { kind: 'map', goName: `map[string]${v().goName}`, value: v };
        }
        if (ap === true || preserve) return ANY;
      }
      return structShape(props ?? {}, preserve, embedded, defs);
    }
    case 'array': {
      const items = node.items;
      const e = (): Shape => shapeOf(items, defs);
      return { kind: 'slice', goName: `[]${e().goName}`, elem: e };
    }
    // a []byte is base64 text, decoded as encoding/json does
    case 'string': return node.format === 'byte' ? { kind: 'scalar', goName: '[]uint8', json: 'string', check: goBase64Error } : { kind: 'scalar', goName: 'string', json: 'string' };
    case 'boolean': return { kind: 'scalar', goName: 'bool', json: 'boolean' };
    case 'integer':
      return { kind: 'scalar', goName: node.format === 'int32' ? 'int32' : 'int64', json: 'integer' };
    case 'number': return { kind: 'scalar', goName: node.format === 'float' ? 'float32' : 'float64', json: 'number' };
    default:
      return ANY;
  }
}

function structShape(props: Readonly<Record<string, SchemaNode>>, preserveUnknown: boolean, embedded: boolean,
  defs: Definitions): Shape {
  const embeddedFields: Record<string, SchemaNode> = embedded
    ? { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: OBJECT_META } }
    : {};
  const memo = new Map<string, Shape | null>();
  return {
    kind: 'struct',
    goName: '',
    preserveUnknown,
    fields: (name) => {
      let f = memo.get(name);
      if (f === undefined) {
        const known = Object.hasOwn(props, name) || Object.hasOwn(embeddedFields, name);
        f = known ? shapeOf(props[name] ?? embeddedFields[name], defs) : null;
        // Unknown names are not remembered: a body could grow the memo without bound.
        if (f !== null) memo.set(name, f);
      }
      return f ?? undefined;
    },
  };
}

/**
 * The Shape of a custom resource from its structural schema: apiVersion, kind and metadata
 * (ObjectMeta) are always known at the root, whatever the schema says about them.
 */
export function customResourceShape(schema: SchemaNode, defs: Definitions = getDefinitions()): Shape {
  const root = shapeOf(schema, defs);
  if (root.kind !== 'struct') return root;
  const meta = shapeOf({ $ref: OBJECT_META }, defs);
  const str = shapeOf({ type: 'string' }, defs);
  return {
    ...root,
    fields: (name) => (name === 'metadata' ? meta : name === 'apiVersion' || name === 'kind' ? str : root.fields(name)),
  };
}
