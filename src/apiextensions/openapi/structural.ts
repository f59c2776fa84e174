// A CRD version's schema as kube publishes it in OpenAPI (apiextensions-apiserver's structural
// schema: NewStructural, Unfold, ToKubeOpenAPI), in kube-openapi's key order, plus the v2 form
// (openapi/v2 ToStructuralOpenAPIV2 and kube-openapi's PruneDefaults).
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema (NewStructural, Unfold,
// ToKubeOpenAPI) and k8s.io/apiextensions-apiserver/pkg/controller/openapi/v2.
import type { JsonObject, JsonValue } from '../../endpoints/openapi/schema-json.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// spec.Schema's JSON field order; extensions follow, sorted. Keys kube drops (id, $schema, $ref,
// definitions, dependencies, patternProperties, additionalItems) are not listed: CRD validation
// forbids them.
const VALUE_KEYS = [
  'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required',
] as const;
const TRUE_ONLY = new Set(['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'nullable',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']);
const NON_EMPTY = new Set(['required', 'x-kubernetes-list-map-keys', 'x-kubernetes-validations']);
const EXTENSIONS = ['x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations'] as const;

function keep(key: string, v: unknown): v is JsonValue {
  // A null default or example is Go's nil: omitted.
  if (v === undefined || v === null) return false;
  if (TRUE_ONLY.has(key)) return v === true;
  if (NON_EMPTY.has(key)) return Array.isArray(v) && v.length > 0;
  if (key === 'type' || key === 'format' || key === 'title' || key === 'pattern' || key === 'description') return v !== '';
  return true;
}

const INT_OR_STRING_ANY_OF: JsonValue[] = [{ type: 'integer' }, { type: 'string' }];
const isIntOrStringPair = (v: unknown): boolean =>
  Array.isArray(v) && v.length === 2 && JSON.stringify(v) === JSON.stringify(INT_OR_STRING_ANY_OF);

/** The published JSON of a schema node (a nested one inside allOf/anyOf/oneOf/not too). */
export function toKubeOpenAPI(s: unknown): JsonObject {
  if (!isObject(s)) return {};
  const out: JsonObject = {};
  const put = (k: string, v: unknown): void => { if (keep(k, v)) out[k] = v; };
  put('description', s['description']);
  put('type', s['type']);
  for (const k of VALUE_KEYS) put(k, s[k]);
  if (isObject(s['items'])) out['items'] = toKubeOpenAPI(s['items']);
  // Unfold: an int-or-string node gets its anyOf (or a first allOf holding it) when it lacks one.
  let allOf = Array.isArray(s['allOf']) ? s['allOf'].map(toKubeOpenAPI) : undefined;
  let anyOf = Array.isArray(s['anyOf']) ? s['anyOf'].map(toKubeOpenAPI) : undefined;
  if (s['x-kubernetes-int-or-string'] === true && !isIntOrStringPair(s['anyOf'])
    && !(Array.isArray(s['allOf']) && isObject(s['allOf'][0]) && isIntOrStringPair(s['allOf'][0]['anyOf']))) {
    if (anyOf === undefined) anyOf = INT_OR_STRING_ANY_OF.map((x) => ({ ...(x as JsonObject) }));
    else allOf = [{ anyOf: INT_OR_STRING_ANY_OF.map((x) => ({ ...(x as JsonObject) })) }, ...(allOf ?? [])];
  }
  if (allOf !== undefined && allOf.length > 0) out['allOf'] = allOf;
  if (Array.isArray(s['oneOf']) && s['oneOf'].length > 0) out['oneOf'] = s['oneOf'].map(toKubeOpenAPI);
  if (anyOf !== undefined && anyOf.length > 0) out['anyOf'] = anyOf;
  if (isObject(s['not'])) out['not'] = toKubeOpenAPI(s['not']);
  if (isObject(s['properties'])) {
    const props: JsonObject = {};
    for (const k of Object.keys(s['properties']).sort()) setKey(props, k, toKubeOpenAPI(s['properties'][k]));
    out['properties'] = props;
  }
  const ap = s['additionalProperties'];
  if (typeof ap === 'boolean') out['additionalProperties'] = ap;
  else if (isObject(ap)) out['additionalProperties'] = toKubeOpenAPI(ap);
  put('nullable', s['nullable']);
  if (isObject(s['externalDocs'])) out['externalDocs'] = s['externalDocs'] as JsonObject;
  put('example', s['example']);
  for (const k of EXTENSIONS) put(k, k === 'x-kubernetes-validations' ? publishedRules(s[k]) : s[k]);
  return out;
}

const RULE_KEYS = ['rule', 'message', 'messageExpression', 'reason', 'fieldPath'] as const;

/** Validation rules as kube's ValidationRule struct marshals them: its field order, empty strings omitted. */
function publishedRules(v: unknown): JsonValue[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter(isObject).map((r) => {
    const out: JsonObject = {};
    for (const k of RULE_KEYS) if (typeof r[k] === 'string' && r[k] !== '') out[k] = r[k];
    if (typeof r['optionalOldSelf'] === 'boolean') out['optionalOldSelf'] = r['optionalOldSelf'];
    return out;
  });
}

/**
 * ToStructuralOpenAPIV2 on a published node, then PruneDefaults: no allOf/anyOf/oneOf/not, no
 * type, items or properties for nullable nodes, no items or properties where unknown fields are
 * kept, no `array` without items or `object` that keeps unknown fields, nullable properties
 * dropped from `required`, and no defaults.
 */
export function toOpenAPIV2(s: JsonObject): JsonObject {
  const out: JsonObject = { ...s };
  delete out['allOf']; delete out['oneOf']; delete out['anyOf']; delete out['not']; delete out['default'];
  if (out['nullable'] === true) { delete out['type']; delete out['nullable']; delete out['items']; delete out['properties']; }
  if (out['x-kubernetes-preserve-unknown-fields'] === true) { delete out['items']; delete out['properties']; }
  if (out['items'] === undefined && out['type'] === 'array') delete out['type'];
  if (out['x-kubernetes-preserve-unknown-fields'] === true && out['type'] === 'object') delete out['type'];
  const props = out['properties'];
  if (isObject(props)) {
    const nullable = Object.keys(props).filter((k) => isObject(props[k]) && props[k]['nullable'] === true);
    const np: JsonObject = {};
    for (const [k, v] of Object.entries(props)) setKey(np, k, toOpenAPIV2(v as JsonObject));
    out['properties'] = np;
    const req = out['required'];
    if (Array.isArray(req) && nullable.length > 0) {
      const kept = req.filter((r) => !nullable.includes(r as string));
      if (kept.length > 0) out['required'] = kept; else delete out['required'];
    }
  }
  // v2 goes through a generic map on kube's side: rule fields come out sorted.
  const rules = out['x-kubernetes-validations'];
  if (Array.isArray(rules)) out['x-kubernetes-validations'] = rules.map((r) => (isObject(r) ? Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1))) : r));
  if (isObject(out['items'])) out['items'] = toOpenAPIV2(out['items']);
  const ap = out['additionalProperties'];
  if (isObject(ap)) {
    if (ap['nullable'] === true) delete out['required'];
    out['additionalProperties'] = toOpenAPIV2(ap);
  }
  return out;
}
