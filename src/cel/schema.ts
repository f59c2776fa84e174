// The CEL type of a structural schema, as kube derives it for CRD validation rules and for policies
// over built-in types: integer -> int, number -> double, string formats byte/duration/date/date-time
// -> bytes/duration/timestamp, x-kubernetes-int-or-string -> dyn, objects with properties -> object
// types with (escaped) fields, additionalProperties -> map(string, T), arrays -> list(T). Sizes
// unknown from the schema are bounded by the request size limit, which is what the cost estimator
// multiplies by. Schemas without a CEL type (no type, only x-kubernetes-preserve-unknown-fields) are
// left out, as kube leaves them out.
// Go counterpart: k8s.io/apiserver/pkg/cel/common/schemas.go.
import { escapeName } from './escaping.ts';
import {
  BoolType, DoubleType, IntType, listType, mapType, objectType, simpleType, StringType,
  type DeclField, type DeclType, type ListKind,
} from './types.ts';
import { MaxRequestSizeBytes } from './limits.ts';

/** The parts of an OpenAPI v3 (structural) schema that shape a CEL type. */
export interface CelSchema {
  readonly type?: string | undefined;
  readonly format?: string | undefined;
  readonly items?: CelSchema | undefined;
  readonly properties?: Readonly<Record<string, CelSchema>> | undefined;
  readonly additionalProperties?: CelSchema | boolean | undefined;
  readonly required?: readonly string[] | undefined;
  readonly enum?: readonly unknown[] | undefined;
  readonly default?: unknown;
  readonly nullable?: boolean | undefined;
  readonly maxItems?: number | undefined;
  readonly maxLength?: number | undefined;
  readonly maxProperties?: number | undefined;
  readonly 'x-kubernetes-int-or-string'?: boolean | undefined;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean | undefined;
  readonly 'x-kubernetes-embedded-resource'?: boolean | undefined;
  readonly 'x-kubernetes-list-type'?: string | undefined;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[] | undefined;
}

const MIN_DURATION_SIZE_JSON = 3;
const MAX_DURATION_SIZE_JSON = 32;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_STRING_SIZE = 2;

const zeroIfNegative = (v: number): number => (v < 0 ? 0 : v);

/**
 * The CEL type of `s`, or undefined when kube does not expose such a value to CEL. Set
 * `isResourceRoot` for the root of a custom resource or of an x-kubernetes-embedded-resource: there
 * apiVersion, kind, metadata.name and metadata.generateName are visible even when not declared.
 * Object types are named `object`; give them path names with assignTypeNames.
 */
export function schemaDeclType(s: CelSchema | undefined, isResourceRoot = false): DeclType | undefined {
  if (s === undefined) return undefined;
  if (s['x-kubernetes-int-or-string'] === true) {
    // the smallest serialized int-or-string is `0`
    return simpleType('dyn', 1, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : MaxRequestSizeBytes - 2);
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      if (s.items === undefined) return undefined;
      const items = schemaDeclType(s.items, s.items['x-kubernetes-embedded-resource'] === true);
      if (items === undefined) return undefined;
      const max = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : Math.trunc((MaxRequestSizeBytes - 2) / (items.minSerializedSize + 1));
      const kind = s['x-kubernetes-list-type'];
      const listKind: ListKind = kind === 'set' || kind === 'map' ? kind : 'atomic';
      const keys = (s['x-kubernetes-list-map-keys'] ?? []).map((k) => escapeName(k) ?? k);
      return listType(items, max, listKind, keys);
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && typeof ap === 'object') {
        const values = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (values === undefined) return undefined;
        const max = s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : Math.trunc((MaxRequestSizeBytes - 2) / (values.minSerializedSize + 6));
        return mapType(StringType, values, max);
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, DeclField>();
      let minSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const t = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (t === undefined) continue;
        const escaped = escapeName(name);
        if (escaped !== undefined) fields.set(escaped, { name: escaped, jsonName: name, type: t, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSize += name.length + t.minSerializedSize + 4;
      }
      return objectType('object', fields, minSize, s['x-kubernetes-preserve-unknown-fields'] === true);
    }
    case 'string': {
      switch (s.format) {
        case 'byte':
          return simpleType('bytes', MIN_STRING_SIZE, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : MaxRequestSizeBytes - 2);
        case 'duration':
          return simpleType('duration', MIN_DURATION_SIZE_JSON, MAX_DURATION_SIZE_JSON);
        case 'date':
          return simpleType('timestamp', JSON_DATE_SIZE, JSON_DATE_SIZE);
        case 'date-time':
          return simpleType('timestamp', MIN_DATETIME_SIZE_JSON, MAX_DATETIME_SIZE_JSON);
      }
      let max: number;
      if (s.maxLength !== undefined) max = zeroIfNegative(s.maxLength) * 4;
      else if (s.enum !== undefined && s.enum.length > 0) max = Math.max(0, ...s.enum.map((v) => (typeof v === 'string' ? v.length : 0)));
      else max = MaxRequestSizeBytes - 2;
      return simpleType('string', MIN_STRING_SIZE, max);
    }
    case 'boolean': return BoolType;
    case 'number': return DoubleType;
    case 'integer': return IntType;
  }
  return undefined;
}

/** `s` with apiVersion, kind and metadata{name, generateName} as strings unless it declares them so. */
export function withTypeAndObjectMeta(s: CelSchema): CelSchema {
  const p = s.properties;
  const isString = (x: CelSchema | undefined): boolean => x?.type === 'string';
  if (p !== undefined && isString(p['kind']) && isString(p['apiVersion']) && p['metadata']?.type === 'object' &&
    isString(p['metadata'].properties?.['name']) && isString(p['metadata'].properties?.['generateName'])) return s;
  const str: CelSchema = { type: 'string' };
  return {
    ...s,
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: { type: 'object', properties: { name: str, generateName: str } },
    },
  };
}
