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
  it('aligns as difflib\'s SequenceMatcher (the longest matching block first), not a shortest edit script', () => {
    // a PV source replaced: difflib anchors on the longest common run (" },") where an LCS would keep "G" and "N"
    const a = ['{', ' "A": null', ' "H": {', '  "P": "x"', ' },', ' "G": null', ' "N": null', ' "R": null', '}'].join('\n');
    const b = ['{', ' "A": null', ' "H": null', ' "G": null', ' "N": {', '  "S": "s"', ' },', ' "R": null', '}'].join('\n');
    assert.equal(unifiedDiff(a, b), '@@ -1,9 +1,9 @@\n {\n  "A": null\n- "H": {\n-  "P": "x"\n+ "H": null\n+ "G": null\n+ "N": {\n+  "S": "s"\n  },\n' +
      '- "G": null\n- "N": null\n  "R": null\n }\n');
  });
  it('splits hunks separated by more than six equal lines', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const b = a.map((l, i) => (i === 2 || i === 17 ? `${l}x` : l));
    assert.equal(unifiedDiff(a.join('\n'), b.join('\n')),
      '@@ -1,6 +1,6 @@\n l0\n l1\n-l2\n+l2x\n l3\n l4\n l5\n@@ -15,6 +15,6 @@\n l14\n l15\n l16\n-l17\n+l17x\n l18\n l19\n');
  });
});
