import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { objectStats, pollObjectCounts, trackObjectCount } from './metrics.ts';

describe('objectStats (the object count tracker the work estimator reads)', () => {
  it('is unknown until counted, then the count, and stale after three minutes', async () => {
    trackObjectCount({ group: 'stats.example.com', resource: 'widgets' }, () => Promise.resolve(42));
    assert.equal(objectStats('widgets.stats.example.com'), 'not-found');
    const stop = pollObjectCounts(3_600_000);
    try {
      await new Promise((r) => setImmediate(r));
      const now = Date.now();
      assert.deepEqual(objectStats('widgets.stats.example.com', now), { objectCount: 42, averageObjectSizeBytes: 0 });
      assert.equal(objectStats('widgets.stats.example.com', now + 3 * 60_000 + 1000), 'stale');
      assert.equal(objectStats('gadgets.stats.example.com', now), 'not-found');
    } finally {
      stop();
    }
  });
});
