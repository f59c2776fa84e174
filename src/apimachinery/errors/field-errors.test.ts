// The texts of field errors as k8s.io/apimachinery's field.Error prints them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, invalid, tooLong, tooMany } from './field-errors.ts';

const CASES: readonly { name: string; err: ReturnType<typeof invalid>; want: string }[] = [
  { name: 'TooMany with a limit of 1 says item', err: tooMany('a', 2, 1), want: 'a: Too many: 2: must have at most 1 item' },
  { name: 'TooMany with a limit of 2 says items', err: tooMany('a', 3, 2), want: 'a: Too many: 3: must have at most 2 items' },
  { name: 'TooLong with a limit of 1 says byte', err: tooLong('a', 'xy', 1), want: 'a: Too long: may not be more than 1 byte' },
  { name: 'TooLong with a limit of 2 says bytes', err: tooLong('a', 'xyz', 2), want: 'a: Too long: may not be more than 2 bytes' },
  { name: 'strings quoted as Go\'s %q: \\v, \\a, \\xNN', err: invalid('a', '\u000b\u0007\u0001\u007f\n', 'd'), want: 'a: Invalid value: "\\v\\a\\x01\\x7f\\n": d' },
  { name: 'an escaped backslash before u0001 stays text', err: invalid('a', '\\u0001', 'd'), want: 'a: Invalid value: "\\\\u0001": d' },
];

describe('field error texts', () => {
  for (const c of CASES) it(c.name, () => assert.equal(formatFieldError(c.err), c.want));
});
