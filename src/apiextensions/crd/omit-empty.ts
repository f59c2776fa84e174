// kube stores a CRD's schemas through Go structs whose fields are `omitempty`: a `false`
// nullable/uniqueItems/x-kubernetes-int-or-string..., an empty string, list or map, and a null
// `default` are gone from what it stores and returns. This drops the same from kapi's copy.
// Counterpart of the omitempty tags of
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types_jsonschema.go.
import type { JSONSchemaProps } from '../v1/types.ts';

const FALSE_OMITTED = ['x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'uniqueItems', 'nullable', 'exclusiveMaximum', 'exclusiveMinimum'];
const EMPTY_STRING_OMITTED = ['type', 'format', 'pattern', 'description', 'title', 'id', '$schema', '$ref'];
const EMPTY_LIST_OMITTED = ['required', 'enum', 'allOf', 'anyOf', 'oneOf', 'x-kubernetes-list-map-keys', 'x-kubernetes-validations'];
const EMPTY_MAP_OMITTED = ['properties', 'patternProperties', 'definitions', 'dependencies'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Removes, in place, the zero values Go's omitempty would drop, through the whole schema. */
export function dropOmittedSchemaFields(s: JSONSchemaProps): void {
  const o = s as Record<string, unknown>;
  for (const k of FALSE_OMITTED) if (o[k] === false) delete o[k];
  for (const k of EMPTY_STRING_OMITTED) if (o[k] === '') delete o[k];
  for (const k of EMPTY_LIST_OMITTED) if (Array.isArray(o[k]) && o[k].length === 0) delete o[k];
  for (const k of EMPTY_MAP_OMITTED) if (isObject(o[k]) && Object.keys(o[k]).length === 0) delete o[k];
  if (o['default'] === null) delete o['default'];
  for (const p of Object.values(s.properties ?? {})) if (isObject(p)) dropOmittedSchemaFields(p);
  if (isObject(s.items)) dropOmittedSchemaFields(s.items);
  if (isObject(s.additionalProperties)) dropOmittedSchemaFields(s.additionalProperties);
  for (const j of [s.allOf, s.anyOf, s.oneOf]) for (const sub of j ?? []) if (isObject(sub)) dropOmittedSchemaFields(sub);
  if (isObject(s.not)) dropOmittedSchemaFields(s.not);
}
