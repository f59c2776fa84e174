// How structured-merge-diff sees an OpenAPI schema (kube-openapi's schemaconv, done lazily):
// every value is a scalar, a list (atomic, or associative: a "set" without keys, a "map"
// keyed by x-kubernetes-list-map-keys, or a merge-patched list keyed by its patch merge key)
// or a map (granular or atomic). Without a schema, values are "deduced": maps granular,
// lists atomic. Quantity and RawExtension, and schemas without a type, are "untyped": any
// map or list there is atomic.
// Counterpart of k8s.io/kube-openapi/pkg/schemaconv and sigs.k8s.io/structured-merge-diff/v6/schema.
import { getDefinitions, resolveSchema } from '../openapi/index.ts';
import type { SchemaNode } from '../openapi/index.ts';
import type { JsonValue } from '../patch/json-value.ts';
import { isJsonObject } from '../patch/json-value.ts';

export type TypeRef =
  | { readonly kind: 'schema'; readonly node: SchemaNode; readonly preserve: boolean;
    readonly mapType: 'atomic' | 'granular' | undefined; readonly name: string | undefined }
  | { readonly kind: 'deduced' }
  | { readonly kind: 'untyped'; /** A scalar of any kind (Quantity): a map or list fails validation. */ readonly scalarOnly?: true };

export type Atom =
  | { readonly kind: 'scalar' }
  | { readonly kind: 'list'; readonly atomic: boolean; readonly keys: readonly string[] | undefined; readonly elem: TypeRef }
  | { readonly kind: 'map'; readonly atomic: boolean; readonly field: (key: string) => TypeRef; readonly isField: (key: string) => boolean;
    /** No element type: a key that is not a field is "not declared in schema" (validation only). */
    readonly closed: boolean };

const DEDUCED: TypeRef = { kind: 'deduced' };
const UNTYPED: TypeRef = { kind: 'untyped' };
const UNTYPED_SCALAR: TypeRef = { kind: 'untyped', scalarOnly: true };
const SCALAR: Atom = { kind: 'scalar' };
const UNTYPED_LIST: Atom = { kind: 'list', atomic: true, keys: undefined, elem: UNTYPED };
const never = (): boolean => false;

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

// Names whose whole value is opaque to SSA (schemaconv's quantityResource / rawExtensionResource).
const UNTYPED_DEFINITIONS = new Set([
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
]);

// Defaults of list-map key fields that kube's OpenAPI carries (+default markers) but the compact
// schemas may lack; an applied port without protocol must still match the live "TCP" item.
const KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, JsonValue>>>> = {
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.EndpointPort': { protocol: 'TCP' },
  'io.k8s.api.discovery.v1.EndpointPort': { protocol: 'TCP' },
};

/** The type of a whole object; undefined schema means deduced (e.g. a CRD without schema). */
export function rootType(schema: SchemaNode | undefined): TypeRef {
  if (schema === undefined) return DEDUCED;
  return refFor(schema, false);
}

/** The TypeRef of a property node (or items / additionalProperties node). */
function refFor(node: SchemaNode, preserve: boolean): TypeRef {
  const mapType = node['x-kubernetes-map-type'];
  if (node.$ref !== undefined) {
    if (node.$ref === QUANTITY) return UNTYPED_SCALAR;
    if (UNTYPED_DEFINITIONS.has(node.$ref)) return UNTYPED;
    const resolved = resolveSchema(node, getDefinitions());
    if (resolved === undefined) return DEDUCED;
    return { kind: 'schema', node: resolved, preserve: resolved['x-kubernetes-preserve-unknown-fields'] === true,
      mapType: mapType ?? resolved['x-kubernetes-map-type'], name: node.$ref };
  }
  return { kind: 'schema', node, preserve: preserve || node['x-kubernetes-preserve-unknown-fields'] === true,
    mapType, name: undefined };
}

function listRelationship(s: SchemaNode): { atomic: boolean; keys: readonly string[] | undefined } {
  const lt = s['x-kubernetes-list-type'];
  if (lt === 'atomic') return { atomic: true, keys: undefined };
  if (lt === 'set') return { atomic: false, keys: undefined };
  if (lt === 'map') return { atomic: false, keys: s['x-kubernetes-list-map-keys'] ?? [] };
  const ps = s['x-kubernetes-patch-strategy'];
  if (ps === 'merge' || ps === 'merge,retainKeys') {
    const key = s['x-kubernetes-patch-merge-key'];
    return { atomic: false, keys: key === undefined ? undefined : [key] };
  }
  return { atomic: true, keys: undefined };
}

function listAtom(s: SchemaNode, preserve: boolean): Atom {
  const rel = listRelationship(s);
  return { kind: 'list', ...rel, elem: s.items === undefined ? UNTYPED : refFor(s.items, preserve) };
}

function mapAtom(s: SchemaNode, t: Extract<TypeRef, { kind: 'schema' }>): Atom {
  const props = s.properties ?? {};
  const ap = s.additionalProperties;
  const elem: TypeRef = typeof ap === 'object' ? refFor(ap, t.preserve) : DEDUCED;
  // schemaconv: without additionalProperties, an object with properties takes no other keys
  // unless it (or an inlined ancestor) preserves unknown fields; additionalProperties: false never.
  const closed = ap === false || (ap === undefined && !t.preserve && Object.keys(props).length > 0);
  return {
    kind: 'map',
    atomic: (t.mapType ?? s['x-kubernetes-map-type']) === 'atomic',
    closed,
    field: (key) => {
      const p = Object.hasOwn(props, key) ? props[key] : undefined;
      return p === undefined ? elem : refFor(p, t.preserve);
    },
    isField: (key) => Object.hasOwn(props, key),
  };
}

const DEDUCED_MAP: Atom = { kind: 'map', atomic: false, field: () => DEDUCED, isField: never, closed: false };
const UNTYPED_MAP: Atom = { kind: 'map', atomic: true, field: () => UNTYPED, isField: never, closed: false };

/** The atom a value takes under a type (deduceAtom + handleAtom's choice). */
export function atomOf(t: TypeRef, v: JsonValue | undefined): Atom {
  const isList = Array.isArray(v);
  const isMap = isJsonObject(v);
  if (t.kind === 'deduced') return isList ? UNTYPED_LIST : isMap ? DEDUCED_MAP : SCALAR;
  if (t.kind === 'untyped') return isList ? UNTYPED_LIST : isMap ? UNTYPED_MAP : SCALAR;
  const s = t.node;
  switch (s.type ?? '') {
    case 'object': return mapAtom(s, t);
    case 'array': return listAtom(s, t.preserve);
    case '': return isList ? listAtom(s, t.preserve) : isMap ? mapAtom(s, t) : SCALAR;
    default: return SCALAR;
  }
}

/** The default of a list-map key field, from the item schema or kube's +default markers. */
export function keyDefault(elem: TypeRef, key: string): JsonValue | undefined {
  if (elem.kind !== 'schema') return undefined;
  const props = elem.node.properties;
  const d = props !== undefined && Object.hasOwn(props, key) ? props[key]?.default : undefined;
  if (d !== undefined) return d as JsonValue;
  return elem.name === undefined ? undefined : KEY_DEFAULTS[elem.name]?.[key];
}
