// A rule's fieldPath resolved below its schema node, as kube's ValidFieldPath resolves it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from '../../v1/types.ts';
import { validFieldPath } from './field-path.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    a: { type: 'object', properties: { b: { type: 'integer' } } },
    'x.y': { type: 'string' },
    m: { type: 'object', additionalProperties: { type: 'object', properties: { c: { type: 'string' } } } },
    l: { type: 'array', items: { type: 'string' } },
  },
};

const CASES: readonly { name: string; path: string; want?: string; error?: string; noArrays?: boolean }[] = [
  { name: 'nested properties', path: '.a.b', want: 'a.b' },
  { name: 'quoted property', path: "['x.y']", want: 'x.y' },
  { name: 'map key then property', path: ".m['k'].c", want: 'm[k].c' },
  { name: 'map key by dot', path: '.m.k', want: 'm[k]' },
  { name: 'escaped quote', path: ".m['it\\'s']", want: "m[it's]" },
  { name: 'no leading dot', path: 'a', error: 'expected [ or . but got: a' },
  { name: 'unknown property', path: '.z', error: 'does not refer to a valid field' },
  { name: 'list index', path: '.l[0]', error: 'expected single quoted string but got 0' },
  { name: 'into a scalar', path: '.a.b.c', error: 'does not refer to a valid field' },
  { name: 'dangling dot', path: '.a.', error: 'unexpected end of JSON path' },
  { name: 'unterminated bracket', path: ".m['k'", error: 'unexpected end of JSON path' },
  { name: 'bad escape', path: ".m['\\q']", error: 'invalid string literal: invalid escape char \\q' },
  { name: 'arrays not allowed (selectable fields)', path: "['x.y']", noArrays: true, error: 'array notation is not allowed' },
];

describe('validFieldPath', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const run = (): string => validFieldPath(c.path, schema, { allowArrayNotation: c.noArrays !== true }).path;
      if (c.error !== undefined) assert.throws(run, { message: c.error });
      else assert.equal(run(), c.want);
    });
  }
});
