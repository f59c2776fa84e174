// Invalid CRDs and custom resources for the CRD-validation differential (src/e2e/crd-validation.test.ts):
// one case per rule of apiextensions-apiserver's schema validation (apiextensions-apiserver pkg/apiserver/schema)
// that kapi implements: RE2 patterns, x-kubernetes-* extension rules, defaults against their schema,
// and the value checks on custom resources (list-type set/map, nullable, property and item counts).

type Json = Record<string, unknown>;

export interface CRDCase {
  readonly name: string;
  /** The schema of spec (the root schema wraps it in properties.spec). */
  readonly spec: Json;
  /** A second version's spec schema, when the versions' schemas differ (kube then names spec.versions[i]). */
  readonly v2?: Json;
}

export interface CRCase {
  readonly name: string;
  readonly spec: Json;
  /** The custom resource's spec. */
  readonly value: unknown;
}

const str = { type: 'string' };
const obj = (properties: Json, extra: Json = {}): Json => ({ type: 'object', properties, ...extra });

const set = (items: Json): Json => ({ type: 'array', 'x-kubernetes-list-type': 'set', items });
const map = (keys: string[], items: Json): Json => ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items });

export const CRD_CASES: readonly CRDCase[] = [
  { name: 'pattern with lookahead', spec: obj({ a: { type: 'string', pattern: '^(?=a)a$' } }) },
  { name: 'pattern with a backreference', spec: obj({ a: { type: 'string', pattern: '(a)\\1' } }) },
  { name: 'pattern with a possessive quantifier', spec: obj({ a: { type: 'string', pattern: 'a++' } }) },
  { name: 'pattern with lookbehind', spec: obj({ a: { type: 'string', pattern: '(?<=a)b' } }) },
  { name: 'pattern with an unclosed group', spec: obj({ a: { type: 'string', pattern: '(ab' } }) },
  { name: 'pattern with a bad repeat', spec: obj({ a: { type: 'string', pattern: '*a' } }) },
  { name: 'pattern with \\Z', spec: obj({ a: { type: 'string', pattern: 'a\\Z' } }) },
  { name: 'pattern with a repeat over 1000', spec: obj({ a: { type: 'string', pattern: 'a{1001}' } }) },
  { name: 'pattern with a bad escape', spec: obj({ a: { type: 'string', pattern: '\\o' } }) },
  { name: 'list-type map without keys', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'map', items: obj({ k: str }, { required: ['k'] }) } }) },
  { name: 'list-type map with scalar items', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: str } }) },
  { name: 'list-type map key not a property', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: obj({ j: str }) } }) },
  { name: 'list-type map key not scalar', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: obj({ k: obj({}) }, { required: ['k'] }) } }) },
  { name: 'list-type map key neither required nor defaulted', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: obj({ k: str }) } }) },
  { name: 'list-type map duplicate keys', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'k'], items: obj({ k: str }, { required: ['k'] }) } }) },
  { name: 'list-map-keys without list-type map', spec: obj({ a: { type: 'array', 'x-kubernetes-list-map-keys': ['k'], items: obj({ k: str }, { required: ['k'] }) } }) },
  { name: 'list-type set with object items', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'set', items: obj({ k: str }) } }) },
  { name: 'list-type unknown', spec: obj({ a: { type: 'array', 'x-kubernetes-list-type': 'bogus', items: str } }) },
  { name: 'list-type on a string', spec: obj({ a: { type: 'string', 'x-kubernetes-list-type': 'set' } }) },
  { name: 'map-type unknown', spec: obj({ a: { type: 'object', 'x-kubernetes-map-type': 'bogus' } }) },
  { name: 'map-type on a string', spec: obj({ a: { type: 'string', 'x-kubernetes-map-type': 'atomic' } }) },
  { name: 'int-or-string with a type', spec: obj({ a: { type: 'string', 'x-kubernetes-int-or-string': true } }) },
  { name: 'int-or-string false', spec: obj({ a: { type: 'string', 'x-kubernetes-int-or-string': false } }) },
  { name: 'embedded-resource false', spec: obj({ a: { type: 'object', 'x-kubernetes-embedded-resource': false } }) },
  { name: 'embedded-resource without properties or preserve', spec: obj({ a: { type: 'object', 'x-kubernetes-embedded-resource': true } }) },
  { name: 'preserve-unknown-fields on a string', spec: obj({ a: { type: 'string', 'x-kubernetes-preserve-unknown-fields': true } }) },
  { name: 'default of the wrong type', spec: obj({ a: { type: 'integer', default: 'x' } }) },
  { name: 'default failing enum', spec: obj({ a: { type: 'string', enum: ['a', 'b'], default: 'c' } }) },
  { name: 'default failing pattern', spec: obj({ a: { type: 'string', pattern: '^a+$', default: 'b' } }) },
  { name: 'default above maximum', spec: obj({ a: { type: 'integer', maximum: 5, default: 7 } }) },
  { name: 'default with an unknown field', spec: obj({ a: { type: 'object', properties: { b: str }, default: { b: 'x', c: 'y' } } }) },
  { name: 'default object missing a required field', spec: obj({ a: { type: 'object', properties: { b: str }, required: ['b'], default: {} } }) },
  { name: 'default null without nullable', spec: obj({ a: { type: 'string', default: null } }) },
  { name: 'integer with a fractional maximum', spec: obj({ a: { type: 'integer', maximum: 10.5 } }) },
  { name: 'integer with a fractional minimum', spec: obj({ a: { type: 'integer', minimum: 0.5 } }) },
  { name: 'uniqueItems true', spec: obj({ a: { type: 'array', uniqueItems: true, items: str } }) },
  { name: 'negative maxLength', spec: obj({ a: { type: 'string', maxLength: -1 } }) },
  { name: 'negative minItems', spec: obj({ a: { type: 'array', minItems: -1, items: str } }) },
  { name: 'negative maxProperties', spec: obj({ a: { type: 'object', maxProperties: -1 } }) },
  { name: 'multipleOf zero', spec: obj({ a: { type: 'number', multipleOf: 0 } }) },
  { name: 'exclusiveMaximum without maximum', spec: obj({ a: { type: 'number', exclusiveMaximum: true } }) },
  { name: 'exclusiveMinimum without minimum', spec: obj({ a: { type: 'number', exclusiveMinimum: true } }) },
  { name: 'additionalProperties false', spec: obj({ a: { type: 'object', additionalProperties: false } }) },
  { name: 'enum value of the wrong type', spec: obj({ a: { type: 'string', enum: ['a', 1] } }) },
  { name: 'pattern inside allOf', spec: obj({ a: { type: 'string', allOf: [{ pattern: '(?=x)' }] } }) },
  { name: 'pattern on array items', spec: obj({ a: { type: 'array', items: { type: 'string', pattern: '[z-a]' } } }) },
  { name: 'pattern in the second of two differing versions', spec: obj({ a: str }), v2: obj({ a: { type: 'string', pattern: 'a**' } }) },
  { name: 'pattern with \\C', spec: obj({ a: { type: 'string', pattern: 'a\\C' } }) },
  { name: 'pattern with an unclosed flag group', spec: obj({ a: { type: 'string', pattern: '(?i' } }) },
  { name: 'pattern with \\8', spec: obj({ a: { type: 'string', pattern: '\\8' } }) },
  { name: 'pattern with a class range from \d', spec: obj({ a: { type: 'string', pattern: '[\\d-z]' } }) },
  { name: 'pattern with an unknown property', spec: obj({ a: { type: 'string', pattern: '\\p{Foo}' } }) },
  { name: 'pattern with (?P=name)', spec: obj({ a: { type: 'string', pattern: '(?P<n>a)(?P=n)' } }) },
  { name: 'pattern valid in RE2 only', spec: obj({ a: { type: 'string', pattern: '\\Aa(?i)b[[:word:]]\\pL\\z' } }) },
  { name: 'set of sets', spec: obj({ a: set({ type: 'array', 'x-kubernetes-list-type': 'set', items: str }) }) },
  { name: 'set of atomic objects accepted', spec: obj({ a: set({ type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { k: str } }) }) },
  { name: 'map key with a default accepted', spec: obj({ a: map(['k'], obj({ k: { type: 'string', default: 'x' } })) }) },
  { name: 'nested default failing maxLength', spec: obj({ a: { type: 'object', properties: { b: { type: 'string', maxLength: 1 } }, default: { b: 'xyz' } } }) },
  { name: 'array default failing items minimum', spec: obj({ a: { type: 'array', items: { type: 'integer', minimum: 5 }, default: [1, 7] } }) },
  { name: 'type under allOf', spec: obj({ a: { type: 'string', allOf: [{ type: 'string', minLength: 1 }] } }) },
  { name: 'extensions and default under anyOf', spec: obj({ a: { type: 'array', items: str, anyOf: [{ 'x-kubernetes-list-type': 'set', default: ['x'], nullable: true }] } }) },
  { name: 'description and title under oneOf items', spec: obj({ a: { type: 'array', items: str, oneOf: [{ items: { description: 'd', title: 't' } }] } }) },
  { name: 'additionalProperties under not', spec: obj({ a: { type: 'object', not: { additionalProperties: { type: 'string' } } } }) },
  { name: 'int-or-string anyOf idiom accepted', spec: obj({ a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }) },
  { name: 'default under additionalProperties wrong type', spec: obj({ a: { type: 'object', additionalProperties: { type: 'integer', default: true } } }) },
];



export const CR_CASES: readonly CRCase[] = [
  { name: 'set with duplicate strings', spec: obj({ a: set(str) }), value: { a: ['x', 'y', 'x'] } },
  { name: 'set with duplicate integers', spec: obj({ a: set({ type: 'integer' }) }), value: { a: [1, 2, 1, 2] } },
  { name: 'map with duplicate keys', spec: obj({ a: map(['k'], obj({ k: str, v: str }, { required: ['k'] })) }),
    value: { a: [{ k: 'x', v: '1' }, { k: 'x', v: '2' }] } },
  { name: 'map with duplicate composite keys', spec: obj({ a: map(['k', 'n'], obj({ k: str, n: { type: 'integer' } }, { required: ['k', 'n'] })) }),
    value: { a: [{ k: 'x', n: 1 }, { k: 'x', n: 2 }, { k: 'x', n: 1 }] } },
  { name: 'null without nullable', spec: obj({ a: str }), value: { a: null } },
  { name: 'null object without nullable', spec: obj({ a: obj({ b: str }) }), value: { a: null } },
  { name: 'maxProperties exceeded', spec: obj({ a: { type: 'object', maxProperties: 1, additionalProperties: str } }), value: { a: { x: '1', y: '2' } } },
  { name: 'minProperties not met', spec: obj({ a: { type: 'object', minProperties: 2, additionalProperties: str } }), value: { a: { x: '1' } } },
  { name: 'maxItems exceeded', spec: obj({ a: { type: 'array', maxItems: 1, items: str } }), value: { a: ['x', 'y'] } },
  { name: 'minItems not met', spec: obj({ a: { type: 'array', minItems: 2, items: str } }), value: { a: ['x'] } },
  { name: 'maxLength exceeded', spec: obj({ a: { type: 'string', maxLength: 2 } }), value: { a: 'xyz' } },
  { name: 'minLength not met', spec: obj({ a: { type: 'string', minLength: 2 } }), value: { a: 'x' } },
  { name: 'pattern \\z', spec: obj({ a: { type: 'string', pattern: '^ab\\z' } }), value: { a: 'abc' } },
  { name: 'pattern (?i)', spec: obj({ a: { type: 'string', pattern: '^(?i)ab$' } }), value: { a: 'xAB' } },
  { name: 'pattern \\pL', spec: obj({ a: { type: 'string', pattern: '^\\pL+$' } }), value: { a: 'ab1' } },
  { name: 'pattern [[:alpha:]]', spec: obj({ a: { type: 'string', pattern: '^[[:alpha:]]+$' } }), value: { a: 'ab1' } },
  { name: 'pattern \\A', spec: obj({ a: { type: 'string', pattern: '\\Aab' } }), value: { a: 'xab' } },
  { name: 'format int32 overflow', spec: obj({ a: { type: 'integer', format: 'int32' } }), value: { a: 2147483648 } },
  { name: 'format date-time', spec: obj({ a: { type: 'string', format: 'date-time' } }), value: { a: 'yesterday' } },
  { name: 'format ipv4', spec: obj({ a: { type: 'string', format: 'ipv4' } }), value: { a: '1.2.3' } },
  { name: 'format uuid', spec: obj({ a: { type: 'string', format: 'uuid' } }), value: { a: 'nope' } },
  { name: 'format email', spec: obj({ a: { type: 'string', format: 'email' } }), value: { a: 'nope' } },
  { name: 'format hostname', spec: obj({ a: { type: 'string', format: 'hostname' } }), value: { a: '-bad-' } },
  { name: 'format byte', spec: obj({ a: { type: 'string', format: 'byte' } }), value: { a: '!!!' } },
  { name: 'format cidr', spec: obj({ a: { type: 'string', format: 'cidr' } }), value: { a: '10.0.0.0' } },
  { name: 'format duration', spec: obj({ a: { type: 'string', format: 'duration' } }), value: { a: 'forever' } },
  { name: 'format unknown accepted', spec: obj({ a: { type: 'string', format: 'bogus' } }), value: { a: 'x' } },
  { name: 'maximum', spec: obj({ a: { type: 'integer', maximum: 5 } }), value: { a: 6 } },
  { name: 'exclusiveMinimum', spec: obj({ a: { type: 'number', minimum: 5, exclusiveMinimum: true } }), value: { a: 5 } },
  { name: 'multipleOf', spec: obj({ a: { type: 'number', multipleOf: 3 } }), value: { a: 7 } },
  { name: 'enum', spec: obj({ a: { type: 'string', enum: ['x', 'y'] } }), value: { a: 'z' } },
  { name: 'enum given a value of the wrong type', spec: obj({ a: { type: 'string', enum: ['x', 'y'] } }), value: { a: 12 } },
  { name: 'required', spec: obj({ a: obj({ b: str }, { required: ['b'] }) }), value: { a: {} } },
  { name: 'integer gets a float', spec: obj({ a: { type: 'integer' } }), value: { a: 1.5 } },
  { name: 'pattern a(?i)b', spec: obj({ a: { type: 'string', pattern: '^a(?i)b$' } }), value: { a: 'AB' } },
  { name: 'pattern . and \\r', spec: obj({ a: { type: 'string', pattern: '^a.$' } }), value: { a: 'a\r' } },
  { name: 'pattern \\s and \\v', spec: obj({ a: { type: 'string', pattern: '^\\s$' } }), value: { a: '\u000b' } },
  { name: 'pattern literal {', spec: obj({ a: { type: 'string', pattern: '^a{,2}$' } }), value: { a: 'aa' } },
  { name: 'nullable keeps null', spec: obj({ a: { type: 'string', nullable: true, maxLength: 1 } }), value: { a: null, b: 1 } },
  { name: 'null replaced by the default', spec: obj({ a: { type: 'string', default: 'd' }, b: { type: 'integer', maximum: 1 } }), value: { a: null, b: 2 } },
  { name: 'set of atomic objects with duplicates', spec: obj({ a: set({ type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { k: str, n: { type: 'integer' } } }) }),
    value: { a: [{ k: 'x', n: 1 }, { n: 1, k: 'x' }] } },
  { name: 'maxProperties 2', spec: obj({ a: { type: 'object', maxProperties: 2, additionalProperties: str } }), value: { a: { x: '1', y: '2', z: '3' } } },
  { name: 'format ipv6', spec: obj({ a: { type: 'string', format: 'ipv6' } }), value: { a: '1:2:3' } },
  { name: 'format uuid4', spec: obj({ a: { type: 'string', format: 'uuid4' } }), value: { a: '123e4567-e89b-12d3-a456-426614174000' } },
  { name: 'format mac', spec: obj({ a: { type: 'string', format: 'mac' } }), value: { a: '00:11:22' } },
  { name: 'format date out of range', spec: obj({ a: { type: 'string', format: 'date' } }), value: { a: '2020-13-01' } },
  { name: 'format duration accepted', spec: obj({ a: { type: 'string', format: 'duration' } }), value: { a: '1h30m' } },
  { name: 'format cidr accepted', spec: obj({ a: { type: 'string', format: 'cidr' } }), value: { a: '10.0.0.0/8' } },
  { name: 'integer above a fractional maximum', spec: obj({ a: { type: 'integer', maximum: 10.5 } }), value: { a: 11 } },
  { name: 'integer below a fractional maximum', spec: obj({ a: { type: 'integer', maximum: 10.5 } }), value: { a: 10 } },
  { name: 'integer multipleOf a fraction', spec: obj({ a: { type: 'integer', multipleOf: 0.5 } }), value: { a: 3 } },
];

/** CRD_CASES refused on update too: a valid CRD is created, then replaced by one with the case's schema. */
export const UPDATE_CASE_NAMES: readonly string[] = [
  'pattern with lookahead', 'pattern with a backreference', 'list-type map without keys', 'default of the wrong type',
  'list-type set with object items', 'pattern valid in RE2 only',
];
