// Turns kapi's compact schemas, with their docs, into the JSON of an OpenAPI document: $ref names
// become JSON pointers (#/definitions/... in v2, #/components/schemas/... in v3). In v3, a $ref
// with sibling keys (description, default) is wrapped in allOf, as kube-openapi's WrapRefs does
// (siblings of $ref are ignored in OpenAPI 3.0), defaults are published (kube prunes them from
// v2), and Quantity and IntOrString are oneOf their forms instead of strings.
// Counterpart of k8s.io/kube-openapi/pkg/validation/spec (JSON form) and
// k8s.io/kube-openapi/pkg/builder3/util.
import type { SchemaDocs } from '../../apimachinery/openapi/docs.ts';
import type { SchemaNode } from '../../apimachinery/openapi/types.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
export type JsonObject = { [k: string]: JsonValue };
export type OpenAPIFormat = 'v2' | 'v3';

export const refPointer = (format: OpenAPIFormat, name: string): string =>
  format === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}`;

export function schemaJSON(node: SchemaNode, format: OpenAPIFormat, docs?: SchemaDocs): JsonObject {
  const out: JsonObject = {};
  if (docs?.description !== undefined) out['description'] = docs.description;
  const oneOf = format === 'v3' ? docs?.oneOf : undefined;
  let ref: string | undefined;
  for (const [key, value] of Object.entries(node) as [string, unknown][]) {
    if (value === undefined) continue;
    switch (key) {
      case '$ref':
        ref = refPointer(format, value as string);
        break;
      case 'type':
        if (oneOf === undefined) out[key] = value as JsonValue;
        break;
      case 'properties': {
        const props: JsonObject = {};
        for (const [name, p] of Object.entries(value as Record<string, SchemaNode>)) {
          props[name] = schemaJSON(p, format, docs?.properties?.[name]);
        }
        out[key] = props;
        break;
      }
      case 'items':
        out[key] = schemaJSON(value as SchemaNode, format, docs?.items);
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'boolean' ? value : schemaJSON(value as SchemaNode, format, docs?.additionalProperties);
        break;
      default:
        out[key] = value as JsonValue;
    }
  }
  if (oneOf !== undefined) out['oneOf'] = oneOf.map((s) => schemaJSON(s, format));
  if (docs?.enum !== undefined) out['enum'] = docs.enum as JsonValue[];
  if (format === 'v3' && docs?.default !== undefined) out['default'] = docs.default as JsonValue;
  if (ref === undefined) return out;
  if (format === 'v2' || Object.keys(out).length === 0) return { $ref: ref, ...out };
  return { allOf: [{ $ref: ref }], ...out };
}
