// DeclType: the type of a CEL variable or field as kube declares it from an OpenAPI schema. Besides
// the CEL type it carries what cost estimation needs (the most elements a list, map or string can
// hold, the smallest serialized size of a value) and, unlike kube's, the list type (set/map), because
// the equality of such lists is a property of the type here (see values.ts).
// Go counterpart: k8s.io/apiserver/pkg/cel/types.go.

/** The scalar CEL types kube declares. `date` is kube's name for a timestamp from `format: date`. */
export type SimpleTypeName =
  | 'any' | 'bool' | 'bytes' | 'double' | 'duration' | 'date' | 'dyn' | 'int' | 'null_type'
  | 'string' | 'timestamp' | 'uint' | 'quantity' | 'authorizer';

export interface SimpleDeclType {
  readonly kind: 'simple';
  readonly name: SimpleTypeName;
  /** For strings and bytes the most characters (bytes), else 0. */
  maxElements: number;
  readonly minSerializedSize: number;
}

/** x-kubernetes-list-type of an array schema: set and map lists compare without regard to order. */
export type ListKind = 'atomic' | 'set' | 'map';

export interface ListDeclType {
  readonly kind: 'list';
  readonly elem: DeclType;
  readonly maxElements: number;
  readonly minSerializedSize: number;
  readonly listType: ListKind;
  /** x-kubernetes-list-map-keys, escaped as CEL field names. */
  readonly mapKeys: readonly string[];
  /** The kube type name (`selfType0.spec.items`); assigned by assignTypeNames. */
  name: string;
}

export interface MapDeclType {
  readonly kind: 'map';
  readonly key: DeclType;
  readonly value: DeclType;
  readonly maxElements: number;
  readonly minSerializedSize: number;
  name: string;
}

export interface DeclField {
  /** The escaped CEL name. */
  readonly name: string;
  /** The OpenAPI property name (unescaped). */
  readonly jsonName: string;
  readonly type: DeclType;
  readonly required: boolean;
}

export interface ObjectDeclType {
  readonly kind: 'object';
  /** `object` until assignTypeNames gives it a path name such as `selfType0.spec`. */
  name: string;
  /** By escaped CEL field name. */
  readonly fields: ReadonlyMap<string, DeclField>;
  /** x-kubernetes-preserve-unknown-fields: the JSON may hold more properties than `fields`. */
  readonly preservesUnknown: boolean;
  maxElements: number;
  readonly minSerializedSize: number;
}

export type DeclType = SimpleDeclType | ListDeclType | MapDeclType | ObjectDeclType;

/** No maximum known (kube's math.MaxInt). */
export const NO_MAX_LENGTH = Number.MAX_SAFE_INTEGER;

export function simpleType(name: SimpleTypeName, minSerializedSize: number, maxElements = 0): SimpleDeclType {
  return { kind: 'simple', name, maxElements, minSerializedSize };
}

export const AnyType: SimpleDeclType = simpleType('any', 1);
export const BoolType: SimpleDeclType = simpleType('bool', 4);
export const BytesType: SimpleDeclType = simpleType('bytes', 2);
export const DoubleType: SimpleDeclType = simpleType('double', 1);
export const DurationType: SimpleDeclType = simpleType('duration', 3);
export const DynType: SimpleDeclType = simpleType('dyn', 1);
export const IntType: SimpleDeclType = simpleType('int', 1);
export const NullType: SimpleDeclType = simpleType('null_type', 4);
export const StringType: SimpleDeclType = simpleType('string', 2);
export const TimestampType: SimpleDeclType = simpleType('timestamp', 12);
export const UintType: SimpleDeclType = simpleType('uint', 1);
/** The type of a policy's `authorizer` variable (kube's library.AuthorizerType). */
export const AuthorizerType: SimpleDeclType = simpleType('authorizer', 0);

export function listType(elem: DeclType, maxElements: number, listKind: ListKind = 'atomic', mapKeys: readonly string[] = []): ListDeclType {
  return { kind: 'list', elem, maxElements, minSerializedSize: 2, listType: listKind, mapKeys, name: 'list' };
}

export function mapType(key: DeclType, value: DeclType, maxElements: number): MapDeclType {
  return { kind: 'map', key, value, maxElements, minSerializedSize: 2, name: 'map' };
}

export function objectType(name: string, fields: ReadonlyMap<string, DeclField>, minSerializedSize = 2, preservesUnknown = false): ObjectDeclType {
  return { kind: 'object', name, fields, preservesUnknown, maxElements: 0, minSerializedSize };
}

/**
 * Gives every object type under `t` kube's path name: the root `name`, a field `name.field`, a list
 * element `name.@idx`, a map value `name.@elem`. Objects named already keep their name. Mutates `t`
 * (call it once on a freshly built type) and returns it.
 */
export function assignTypeNames<T extends DeclType>(t: T, name: string): T {
  switch (t.kind) {
    case 'object': {
      if (t.name === 'object') t.name = name;
      for (const f of t.fields.values()) assignTypeNames(f.type, `${t.name}.${f.name}`);
      break;
    }
    case 'list':
      t.name = name;
      assignTypeNames(t.elem, `${name}.@idx`);
      break;
    case 'map':
      t.name = name;
      assignTypeNames(t.value, `${name}.@elem`);
      break;
    case 'simple':
      break;
  }
  return t;
}

/** The CEL type as cel-go prints it in messages: `int`, `list(string)`, `map(string, int)`, `selfType0.spec`. */
export function celTypeName(t: DeclType): string {
  switch (t.kind) {
    case 'simple':
      switch (t.name) {
        case 'date': return 'google.protobuf.Timestamp';
        case 'timestamp': return 'google.protobuf.Timestamp';
        case 'duration': return 'google.protobuf.Duration';
        case 'quantity': return 'kubernetes.Quantity';
        case 'authorizer': return 'kubernetes.authorization.Authorizer';
        default: return t.name;
      }
    case 'list': return `list(${celTypeName(t.elem)})`;
    case 'map': return `map(${celTypeName(t.key)}, ${celTypeName(t.value)})`;
    case 'object': return t.name;
  }
}

/** Every object type reachable from `t` (itself included), each once. */
export function objectTypesOf(t: DeclType, out: Map<string, ObjectDeclType> = new Map()): Map<string, ObjectDeclType> {
  switch (t.kind) {
    case 'object':
      if (out.has(t.name)) return out;
      out.set(t.name, t);
      for (const f of t.fields.values()) objectTypesOf(f.type, out);
      break;
    case 'list': objectTypesOf(t.elem, out); break;
    case 'map': objectTypesOf(t.value, out); break;
    case 'simple': break;
  }
  return out;
}

const keys = new WeakMap<DeclType, string>();

/** A string that is equal for structurally equal types (names, fields, sizes, list kinds). */
export function typeKey(t: DeclType): string {
  let k = keys.get(t);
  if (k !== undefined) return k;
  switch (t.kind) {
    case 'simple': k = `${t.name}/${t.maxElements}`; break;
    case 'list': k = `list<${typeKey(t.elem)}>/${t.maxElements}/${t.listType}/${t.mapKeys.join('+')}`; break;
    case 'map': k = `map<${typeKey(t.key)},${typeKey(t.value)}>/${t.maxElements}`; break;
    case 'object': k = `${t.name}{${[...t.fields.values()].map((f) => `${f.name}=${f.jsonName}${f.required ? '!' : ''}:${typeKey(f.type)}`).join(',')}}`; break;
  }
  keys.set(t, k);
  return k;
}
