// Strategic merge patch on inputs as large as a 3 MiB body allows: the results are kube's, and
// the work grows like n log n (the requests below would take minutes with quadratic searches).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { schemaForGVK } from '../openapi/index.ts';
import { deduplicateScalars, type JsonValue } from './json-value.ts';
import { goSliceStable } from './stable-sort.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

const POD = schemaForGVK({ group: '', version: 'v1', kind: 'Pod' });

describe('Go\'s algorithms, reproduced exactly', () => {
  it('sorts like sort.SliceStable, also with kube\'s "missing is less" comparator', () => {
    // Positions in an order list (-1: missing); the outputs are Go 1.22's for these inputs.
    const cases = [
      { name: 'mixed, 30 items', pos: [3, -1, 2, -1, 0, 5, 4, -1, 1, 7, 6, -1, 9, 8, 12, 11, 10, -1, 15, 14, 13, -1, 18, 17, 16, 20, 19, -1, 22, 21],
        want: [27, 21, 17, 11, 7, 4, 8, 3, 2, 1, 0, 6, 5, 10, 9, 13, 12, 16, 15, 14, 20, 19, 18, 24, 23, 22, 26, 25, 29, 28] },
      { name: 'mixed, 32 items', pos: [5, 4, 3, 2, 1, 0, -1, -1, 10, 9, 8, 7, 6, -1, 12, 11, 13, 14, -1, 16, 15, 17, 19, 18, 21, 20, -1, 23, 22, 24, 25, 26],
        want: [26, 18, 13, 7, 6, 5, 4, 3, 2, 1, 0, 12, 11, 10, 9, 8, 15, 14, 16, 17, 20, 19, 21, 23, 22, 25, 24, 28, 27, 29, 30, 31] },
    ];
    for (const c of cases) {
      const idx = c.pos.map((_, i) => i);
      goSliceStable(idx, (a, b) => {
        const pa = c.pos[a] ?? -1;
        const pb = c.pos[b] ?? -1;
        return pa >= 0 && pb >= 0 ? pa < pb : true;
      });
      assert.deepEqual(idx, c.want, c.name);
    }
    const big = Array.from({ length: 200_000 }, (_, i) => 200_000 - i);
    goSliceStable(big, (x, y) => x < y);
    assert.deepEqual([big[0], big[199_999]], [1, 200_000]);
  });

  it('deduplicates like deduplicateScalars (swap with the last element)', () => {
    const cases: { name: string; in: JsonValue[]; want: JsonValue[] }[] = [
      { name: 'no duplicates', in: ['a', 'b', 'c'], want: ['a', 'b', 'c'] },
      { name: 'the last element fills the hole', in: ['a', 'b', 'a', 'c', 'd'], want: ['a', 'b', 'd', 'c'] },
      { name: 'a duplicate moved in is checked again', in: ['a', 'a', 'b', 'a'], want: ['a', 'b'] },
      { name: 'types differ', in: [1, '1', 1, null, null], want: [1, '1', null] },
    ];
    for (const c of cases) assert.deepEqual(deduplicateScalars(c.in), c.want, c.name);
    const many = Array.from({ length: 200_000 }, (_, i) => `f${i}`);
    assert.equal(deduplicateScalars([...many, 'f7']).length, 200_000);
  });
});

describe('strategic merge patch of long lists', () => {
  const n = 20_000;
  const env = Array.from({ length: n }, (_, i) => ({ name: `E${i}`, value: 'v' }));
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: Array.from({ length: n }, (_, i) => `f/${i}`) },
    spec: { containers: [{ name: 'c', image: 'i', env }] } };
  type Pod = { metadata: { finalizers: string[] }; spec: { containers: { env: { name: string; value: string }[] }[] } };

  it('merges every item of a reversed list by its merge key', () => {
    const patch = { spec: { containers: [{ name: 'c', env: env.map((e) => ({ ...e, value: 'w' })).reverse() }] } };
    const out = applyStrategicMergePatch(pod, patch, POD) as unknown as Pod;
    const got = out.spec.containers[0]?.env ?? [];
    assert.equal(got.length, n);
    assert.ok(got.every((e) => e.value === 'w'));
    // Patch items keep the patch's order.
    assert.equal(got[0]?.name, `E${n - 1}`);
  });

  it('deletes half of the items with $patch: delete, and follows $setElementOrder', () => {
    const del = env.filter((_, i) => i % 2 === 0).map((e) => ({ name: e.name, $patch: 'delete' }));
    const order = env.filter((_, i) => i % 2 === 1).reverse().map((e) => ({ name: e.name }));
    const patch = { spec: { containers: [{ name: 'c', env: del, '$setElementOrder/env': order }] } };
    const out = applyStrategicMergePatch(pod, patch, POD) as unknown as Pod;
    const got = out.spec.containers[0]?.env ?? [];
    assert.equal(got.length, n / 2);
    assert.deepEqual(got.slice(0, 2).map((e) => e.name), [`E${n - 1}`, `E${n - 3}`]);
  });

  it('merges long primitive lists (finalizers) once each', () => {
    const patch = { metadata: { finalizers: Array.from({ length: n }, (_, i) => `g/${i}`) } };
    const out = applyStrategicMergePatch(pod, patch, POD) as unknown as Pod;
    assert.equal(out.metadata.finalizers.length, 2 * n);
  });
});
