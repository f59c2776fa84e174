import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goJSONKind, goJSONParse } from './go-json.ts';

describe("goJSONParse: encoding/json's error texts", () => {
  const cases: [string, string][] = [
    ['bogus', "invalid character 'b' looking for beginning of value"],
    ['  ', 'unexpected end of JSON input'],
    ['tru', "invalid character ' ' in literal true (expecting 'e')"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['-', "invalid character ' ' in numeric literal"],
    ['{', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
  ];
  for (const [input, want] of cases) it(JSON.stringify(input), () => assert.deepEqual(goJSONParse(input), { error: want }));
  it('parses valid JSON', () => assert.deepEqual(goJSONParse('{"a":1}'), { value: { a: 1 } }));
  it('names Go kinds', () => assert.deepEqual([[1], 'a', 1, true, null, {}].map(goJSONKind), ['array', 'string', 'number', 'bool', 'null', 'object']));
});
