// The event buffer sized by time, as kube's watchCache.resizeCacheLocked: it doubles when full of
// events younger than the fresh duration (up to its upper bound), halves when its newest quarter
// is older (down to its lower bound), and what a shrink drops is too old to watch from.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { WatchCache } from './watch-cache.ts';

const obj = (name: string, rv: number): KubeObject => ({ metadata: { name, resourceVersion: String(rv) } });

function newCache(): { cache: WatchCache; clock: { t: number } } {
  const clock = { t: 0 };
  const cache = new WatchCache({ lowerBound: 4, upperBound: 16, freshMs: 1000, now: () => clock.t });
  cache.replace([], 1);
  return { cache, clock };
}

/** Writes n changes one revision apart from `rev`, `stepMs` apart; returns the next revision. */
function write(cache: WatchCache, clock: { t: number }, rev: number, n: number, stepMs: number): number {
  for (let i = 0; i < n; i++, rev++) {
    clock.t += stepMs;
    cache.apply(`/k/${rev % 3}`, obj(`o${rev % 3}`, rev), rev);
  }
  return rev;
}

describe('watch cache event buffer', () => {
  const cases = [
    { name: 'a burst of fresh events grows it to its upper bound and keeps them all', n: 16, stepMs: 10, capacity: 16, oldest: 1 },
    { name: 'past the upper bound the oldest go', n: 20, stepMs: 10, capacity: 16, oldest: 5 },
    { name: 'events further apart than the fresh duration keep it at its lower bound', n: 10, stepMs: 2000, capacity: 4, oldest: 7 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { cache, clock } = newCache();
      write(cache, clock, 2, c.n, c.stepMs);
      assert.deepEqual([cache.capacity, cache.oldestRev()], [c.capacity, c.oldest]);
      assert.equal(cache.eventsAfter(cache.oldestRev()).length, cache.capacity === c.n ? c.n : cache.capacity);
    });
  }

  it('shrinks once its newest quarter is stale, and a watch from before what it dropped is too old', () => {
    const { cache, clock } = newCache();
    let rev = write(cache, clock, 2, 16, 10);
    assert.equal(cache.capacity, 16);
    clock.t += 5000;
    rev = write(cache, clock, rev, 1, 0);
    assert.equal(cache.capacity, 8);
    // Every event after the oldest revision is still there, in order.
    const after = cache.eventsAfter(cache.oldestRev()).map((e) => e.rev);
    assert.deepEqual(after, Array.from({ length: 8 }, (_, i) => rev - 8 + i));
    assert.equal(cache.oldestRev(), rev - 9);
  });
});
