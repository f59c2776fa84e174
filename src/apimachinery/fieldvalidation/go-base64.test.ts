import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goBase64Error } from './go-base64.ts';

describe('goBase64Error: encoding/base64 StdEncoding errors', () => {
  const cases: [string, string | undefined][] = [
    ['', undefined], ['eA==', undefined], ['eHk=', undefined], ['eHl6', undefined], ['eHl6\neA==', undefined],
    ['!!!', 'illegal base64 data at input byte 0'], ['eA', 'illegal base64 data at input byte 0'], ['eHl6e', 'illegal base64 data at input byte 4'],
    ['eA=', 'illegal base64 data at input byte 3'], ['e===', 'illegal base64 data at input byte 1'], ['eA==eA==', 'illegal base64 data at input byte 4'],
    ['eHk*', 'illegal base64 data at input byte 3'],
  ];
  for (const [input, want] of cases) it(JSON.stringify(input), () => assert.equal(goBase64Error(input), want));
});
