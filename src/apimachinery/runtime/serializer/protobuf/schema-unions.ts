// apiextensions' JSONSchemaProps has three helper unions that Go marshals to JSON as one of
// their members, while their protobuf messages carry the members as separate fields:
//   JSONSchemaPropsOrArray       {schema, jSONSchemas}  JSON: the list if non-empty, else the schema (or null)
//   JSONSchemaPropsOrBool        {allows, schema}       JSON: the schema if set, else allows as a bool
//   JSONSchemaPropsOrStringArray {schema, property}     JSON: the list if non-empty, else the schema (or null)
// (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1 marshal.go). These functions map the
// JSON form to an object keyed by the message's field names and back, so the generic message
// code encodes and decodes the fields.
import type { Special } from './descriptors.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type UnionSpecial = Extract<Special, 'orarray' | 'orbool' | 'orstringarray'>;

export const isUnion = (s: Special | undefined): s is UnionSpecial =>
  s === 'orarray' || s === 'orbool' || s === 'orstringarray';

/** The union's fields for its JSON form, as Go's UnmarshalJSON sets them. */
export function unionFields(s: UnionSpecial, v: unknown): Obj {
  switch (s) {
    case 'orbool':
      // An object is a schema (and allows is then true); anything but a bool is refused.
      if (isObj(v)) return { allows: true, schema: v };
      if (typeof v === 'boolean') return { allows: v };
      throw new Error('boolean or JSON schema expected');
    case 'orarray':
      // Neither an object nor a list (a string, a number) leaves both members unset, as in Go.
      if (isObj(v)) return { schema: v };
      return Array.isArray(v) ? { jSONSchemas: v } : {};
    case 'orstringarray':
      if (isObj(v)) return { schema: v };
      return Array.isArray(v) ? { property: v } : {};
  }
}

/** The JSON form Go's MarshalJSON prints for the union's decoded fields. */
export function unionJSON(s: UnionSpecial, fields: Obj): unknown {
  const schema = fields['schema'] ?? null;
  switch (s) {
    case 'orbool':
      return schema !== null ? schema : fields['allows'] === true;
    case 'orarray': {
      const list = fields['jSONSchemas'];
      return Array.isArray(list) && list.length > 0 ? list : schema;
    }
    case 'orstringarray': {
      const list = fields['property'];
      return Array.isArray(list) && list.length > 0 ? list : schema;
    }
  }
}
