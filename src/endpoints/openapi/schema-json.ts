// Turns kapi's compact schemas into the JSON of an OpenAPI document: $ref names become JSON
// pointers (#/definitions/... in v2, #/components/schemas/... in v3). In v3, a $ref with sibling
// keys is wrapped in allOf, as kube-openapi does (siblings of $ref are ignored in OpenAPI 3.0).
import type { SchemaNode } from '../../apimachinery/openapi/types.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
export type JsonObject = { [k: string]: JsonValue };
export type OpenAPIFormat = 'v2' | 'v3';

export const refPointer = (format: OpenAPIFormat, name: string): string =>
  format === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}`;

export function schemaJSON(node: SchemaNode, format: OpenAPIFormat): JsonObject {
  const out: JsonObject = {};
  let ref: string | undefined;
  for (const [key, value] of Object.entries(node) as [string, unknown][]) {
    if (value === undefined) continue;
    switch (key) {
      case '$ref':
        ref = refPointer(format, value as string);
        break;
      case 'properties': {
        const props: JsonObject = {};
        for (const [name, p] of Object.entries(value as Record<string, SchemaNode>)) props[name] = schemaJSON(p, format);
        out[key] = props;
        break;
      }
      case 'items':
        out[key] = schemaJSON(value as SchemaNode, format);
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'boolean' ? value : schemaJSON(value as SchemaNode, format);
        break;
      default:
        out[key] = value as JsonValue;
    }
  }
  if (ref === undefined) return out;
  if (format === 'v2' || Object.keys(out).length === 0) return { $ref: ref, ...out };
  return { allOf: [{ $ref: ref }], ...out };
}
