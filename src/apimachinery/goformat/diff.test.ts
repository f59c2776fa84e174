import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unifiedDiff } from './diff.ts';

describe('unifiedDiff', () => {
  it('is empty for equal text', () => assert.equal(unifiedDiff('a\nb', 'a\nb'), ''));
  it('writes one hunk with three lines of context, deletions first', () => {
    const a = ['1', '2', '3', '4', '5', '6', '7', '8'].join('\n');
    const b = ['1', '2', '3', '4', 'X', '6', '7', '8'].join('\n');
    assert.equal(unifiedDiff(a, b), '@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n');
  });
  it('counts an insertion', () => {
    assert.equal(unifiedDiff('a', 'a\nb'), '@@ -1 +1,2 @@\n a\n+b\n');
  });
});
