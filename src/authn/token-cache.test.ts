import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthResponse, TokenAuthenticator } from './authenticator.ts';
import { newCachedTokenAuthenticator } from './token-cache.ts';

/** An authenticator that answers from `valid` and counts its lookups. */
function counting(valid: Set<string>): TokenAuthenticator & { calls: number } {
  const a = {
    calls: 0,
    authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
      a.calls++;
      if (token === 'bad') return Promise.reject(new Error('service account token has been invalidated'));
      return Promise.resolve(valid.has(token) ? { user: { name: token, groups: [] }, audiences: audiences ?? [] } : undefined);
    },
  };
  return a;
}

describe('token cache', () => {
  const cases = [
    { name: 'a success is remembered within the TTL', token: 'alice', advanceMs: 9_999, revoke: true, wantCalls: 1, wantUser: 'alice' },
    { name: 'a success is looked up again after the TTL', token: 'alice', advanceMs: 10_000, revoke: true, wantCalls: 2, wantUser: undefined },
    { name: 'an unknown token is never remembered', token: 'nobody', advanceMs: 0, revoke: false, wantCalls: 2, wantUser: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      let now = 0;
      const valid = new Set(['alice']);
      const inner = counting(valid);
      const cached = newCachedTokenAuthenticator(inner, { now: () => now });
      await cached.authenticateToken(c.token);
      if (c.revoke) valid.delete(c.token);
      now += c.advanceMs;
      const second = await cached.authenticateToken(c.token);
      assert.equal(second?.user.name, c.wantUser);
      assert.equal(inner.calls, c.wantCalls);
    });
  }

  it('remembers an unknown token for the failure TTL when one is given (the token webhook\'s cache)', async () => {
    let now = 0;
    const inner = counting(new Set());
    const cached = newCachedTokenAuthenticator(inner, { successTTLMs: 120_000, failureTTLMs: 120_000, now: () => now });
    await cached.authenticateToken('nobody');
    now += 119_999;
    assert.equal(await cached.authenticateToken('nobody'), undefined);
    assert.equal(inner.calls, 1);
    now += 1;
    await cached.authenticateToken('nobody');
    assert.equal(inner.calls, 2);
  });

  it('never remembers an error', async () => {
    const inner = counting(new Set());
    const cached = newCachedTokenAuthenticator(inner);
    for (let i = 0; i < 2; i++) await assert.rejects(cached.authenticateToken('bad'), { message: 'service account token has been invalidated' });
    assert.equal(inner.calls, 2);
  });

  it('keys by audiences too', async () => {
    const inner = counting(new Set(['alice']));
    const cached = newCachedTokenAuthenticator(inner);
    assert.deepEqual((await cached.authenticateToken('alice', ['a']))?.audiences, ['a']);
    assert.deepEqual((await cached.authenticateToken('alice', ['b']))?.audiences, ['b']);
    assert.deepEqual((await cached.authenticateToken('alice', ['a']))?.audiences, ['a']);
    assert.equal(inner.calls, 2);
  });

  it('shares one lookup between concurrent checks of a token', async () => {
    const inner = counting(new Set(['alice']));
    const cached = newCachedTokenAuthenticator(inner);
    const all = await Promise.all([1, 2, 3].map(() => cached.authenticateToken('alice')));
    assert.deepEqual(all.map((r) => r?.user.name), ['alice', 'alice', 'alice']);
    assert.equal(inner.calls, 1);
  });

  it('holds at most maxEntries tokens', async () => {
    const tokens = Array.from({ length: 5 }, (_, i) => `t${i}`);
    const inner = counting(new Set(tokens));
    const cached = newCachedTokenAuthenticator(inner, { maxEntries: 2 });
    for (const t of tokens) await cached.authenticateToken(t);
    await cached.authenticateToken('t4'); // newest: still cached
    await cached.authenticateToken('t0'); // oldest: evicted, looked up again
    assert.equal(inner.calls, 6);
  });
});
