import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DroppedRequestsTracker } from './dropped-requests.ts';

describe('DroppedRequestsTracker', () => {
  it('starts at 1 s, doubles while a level keeps dropping, and comes down when it stops', () => {
    let now = 1_000_000_000;
    const t = new DroppedRequestsTracker(() => now);
    assert.equal(t.retryAfter('pl'), 1);
    const drop = (n: number): void => { for (let i = 0; i < n; i++) t.record('pl'); };
    drop(5);
    now += 1000;
    drop(1);
    assert.equal(t.retryAfter('pl'), 2);
    assert.equal(t.retryAfter('other'), 1);
    now += 5000;
    drop(1);
    assert.equal(t.retryAfter('pl'), 1);
  });
});
