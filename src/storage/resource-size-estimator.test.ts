import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KeyValue } from './backend.ts';
import { ResourceSizeEstimator } from './resource-size-estimator.ts';

const kv = (key: string, size: number, modRevision: number): KeyValue => ({ key, value: 'x'.repeat(size), createRevision: 1, modRevision, lease: 0, expiresAt: 0 });

describe('ResourceSizeEstimator', () => {
  it('averages the newest size seen of each key, and forgets deleted keys', () => {
    const e = new ResourceSizeEstimator();
    assert.equal(e.averageSize(), 0, 'nothing seen: unknown');
    e.update([kv('/a', 100, 2), kv('/b', 300, 3)]);
    assert.equal(e.averageSize(), 200);
    // An older version read late does not replace a newer one.
    e.update([kv('/a', 900, 1)]);
    assert.equal(e.averageSize(), 200);
    e.onEvents([{ type: 'put', kv: kv('/a', 500, 4), prevKv: undefined }]);
    assert.equal(e.averageSize(), 400);
    e.onEvents([{ type: 'delete', kv: kv('/b', 0, 5), prevKv: undefined }]);
    assert.equal(e.averageSize(), 500);
    // A delete older than what was seen is ignored.
    e.onEvents([{ type: 'delete', kv: kv('/a', 0, 3), prevKv: undefined }]);
    assert.equal(e.averageSize(), 500);
  });
});
