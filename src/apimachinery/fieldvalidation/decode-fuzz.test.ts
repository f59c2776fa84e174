// Fuzzing the request-body decoder (issue 9): whatever a client sends as a JSON or YAML body, the
// decoder answers or refuses with a 4xx StatusError (never a TypeError, a stack overflow or a 5xx),
// and what it decodes is no larger than a small multiple of the body (no alias or copy blow-up).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clientSafe, deepText, fuzz, hostileJSONText, hostileKey, hostileValue, jsonSize, PROTO_KEYS } from '../testing/fuzz.ts';
import { decodeBody } from './decode.ts';
import type { FieldValidationDirective } from './directive.ts';

const CM = { group: '', version: 'v1', kind: 'ConfigMap' };
const DEPLOY = { group: 'apps', version: 'v1', kind: 'Deployment' };
const DIRECTIVES: readonly FieldValidationDirective[] = ['Strict', 'Warn', 'Ignore'];

/** Decoded output may exceed the body only by escaping and defaults: a small multiple, never a blow-up. */
function assertBounded(obj: unknown, raw: string): void {
  const size = jsonSize(obj);
  assert.ok(size <= 6 * raw.length + 500, `decoded ${size} bytes from a ${raw.length}-byte body`);
}

/** YAML that JSON text cannot express: anchors and aliases (a "billion laughs"), tags, merge keys, deep flow and block nesting. */
const hostileYAMLText: fc.Arbitrary<string> = fc.oneof(
  hostileJSONText,
  fc.integer({ min: 1, max: 9 }).map((levels) => {
    const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: x}', 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(',')}]`);
    lines.push(`data: {x: *a${levels}}`);
    return lines.join('\n');
  }),
  fc.integer({ min: 1, max: 3000 }).map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nextra:\n${Array.from({ length: n }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}1\n`),
  deepText.map((t) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nextra: ${t}\n`),
  fc.constantFrom('!!binary aGVsbG8=', '!!timestamp 2001-12-14', '<<: {a: 1}', '? [a, b]\n: c', '!<tag:yaml.org,2002:str> x', '%YAML 1.1\n---\na: 1',
    '---\na: 1\n---\nb: 2', 'a: !!float .nan', 'a: 0o777', 'a: 1_000', 'a: ~', '&x a: *x', 'data: {a: *undefined}')
    .map((s) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n${s}\n`),
  fc.dictionary(hostileKey, hostileValue, { maxKeys: 4, noNullPrototype: true })
    .map((d) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n${Object.entries(d).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v) ?? 'null'}`).join('\n')}\n`),
);

describe('decodeBody fuzzing', () => {
  for (const directive of DIRECTIVES) {
    it(`JSON bodies, fieldValidation=${directive}`, () => {
      fuzz(hostileJSONText, (raw) => {
        for (const gvk of [CM, DEPLOY]) {
          const out = clientSafe(() => decodeBody(raw, 'json', gvk, directive));
          if (out !== undefined) assertBounded(out.obj, raw);
        }
      }, { seed: 9001, numRuns: 150 });
    });

    it(`YAML bodies, fieldValidation=${directive}`, () => {
      fuzz(hostileYAMLText, (raw) => {
        const out = clientSafe(() => decodeBody(raw, 'yaml', CM, directive));
        if (out !== undefined) assertBounded(out.obj, raw);
      }, { seed: 9002, numRuns: 120 });
    });
  }

  it('prototype-named keys come back as data, and Object.prototype stays untouched', () => {
    fuzz(fc.subarray(PROTO_KEYS, { minLength: 1 }), (keys) => {
      const raw = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{${keys.map((k) => `"${k}":"v-${k}"`).join(',')}}}`;
      for (const [mediaType, text] of [['json', raw], ['yaml', raw]] as const) {
        const out = decodeBody(text, mediaType, CM, 'Strict');
        const data = (out.obj as { data: Record<string, unknown> }).data;
        for (const k of keys) assert.ok(Object.hasOwn(data, k) && data[k] === `v-${k}`, `${mediaType}: data[${k}]`);
      }
      assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).filter((n) => !OBJECT_PROTO_NAMES.has(n)), []);
    }, { seed: 9003, numRuns: 40 });
  });
});

const OBJECT_PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
