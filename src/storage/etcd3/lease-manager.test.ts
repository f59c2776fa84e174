import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaseManager } from './lease-manager.ts';

function manager(opts: { maxAttachedObjects?: number } = {}) {
  let now = 1_000_000;
  const grants: number[] = [];
  const m = new LeaseManager(async (ttl) => { grants.push(ttl); return String(grants.length); }, { ...opts, now: () => now });
  return { m, grants, advance: (s: number) => { now += s * 1000; } };
}

describe('LeaseManager (kube leaseManager)', () => {
  for (const c of [
    { name: 'reuses the lease for the same TTL shortly after', after: 2, ttl: 100, reused: true },
    { name: 'grants a new lease once the old one would expire before the TTL', after: 6, ttl: 100, reused: false },
    { name: 'grants a new lease for a much shorter TTL (the old one would outlive it too long)', after: 0, ttl: 50, reused: false },
    { name: 'grants a new lease for a longer TTL', after: 0, ttl: 200, reused: false },
  ]) {
    it(c.name, async () => {
      const { m, grants, advance } = manager();
      const first = await m.getLease(100);
      // 5% of the TTL is added so that the lease can be reused for that long.
      assert.deepEqual(grants, [105]);
      advance(c.after);
      const second = await m.getLease(c.ttl);
      assert.equal(second.id === first.id, c.reused);
    });
  }

  it('caps the reuse window at reuseDurationSeconds', async () => {
    const { m, grants } = manager();
    await m.getLease(3600);
    assert.deepEqual(grants, [3660]);
  });

  it('grants a new lease after maxAttachedObjects keys', async () => {
    const { m, grants } = manager({ maxAttachedObjects: 2 });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await m.getLease(100)).id);
    assert.deepEqual(ids, ['1', '1', '2', '2', '3']);
    assert.equal(grants.length, 3);
  });

  it('shares one grant between concurrent callers', async () => {
    const { m, grants } = manager();
    const leases = await Promise.all([m.getLease(100), m.getLease(100), m.getLease(100)]);
    assert.deepEqual(leases.map((l) => l.id), ['1', '1', '1']);
    assert.equal(grants.length, 1);
  });
});
