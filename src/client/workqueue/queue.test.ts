import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimitingQueue } from './queue.ts';
import { ItemExponentialFailureRateLimiter } from './rate-limiter.ts';
import { runWorkers } from './worker.ts';

describe('RateLimitingQueue', () => {
  it('queues a key once however often it is added', async () => {
    const q = new RateLimitingQueue<string>();
    for (const k of ['a', 'b', 'a', 'a', 'c', 'b']) q.add(k);
    assert.equal(q.length, 3);
    assert.deepEqual([await q.get(), await q.get(), await q.get()], ['a', 'b', 'c']);
  });

  it('hands a key to one worker at a time and requeues it on done when added meanwhile', async () => {
    const q = new RateLimitingQueue<string>();
    q.add('a');
    const first = await q.get();
    q.add('a');
    q.add('a');
    assert.equal(q.length, 0, 'a key being processed is not queued again');
    q.done(first ?? '');
    assert.equal(q.length, 1);
    assert.equal(await q.get(), 'a');
  });

  it('wakes a waiting worker on add', async () => {
    const q = new RateLimitingQueue<string>();
    const got = q.get();
    q.add('x');
    assert.equal(await got, 'x');
  });

  it('shutDown releases waiting workers, ignores adds and still drains what is queued', async () => {
    const q = new RateLimitingQueue<string>();
    q.add('a');
    const w1 = await q.get();
    const waiting = q.get();
    q.add('b');
    assert.equal(await waiting, 'b');
    q.add('c');
    q.shutDown();
    q.add('d');
    assert.equal(await q.get(), 'c');
    assert.equal(await q.get(), undefined);
    let drained = false;
    const d = q.shutDownWithDrain().then(() => { drained = true; });
    await Promise.resolve();
    assert.equal(drained, false, 'a and b are still processed');
    q.done(w1 ?? '');
    q.done('b');
    q.done('c');
    await d;
    assert.equal(drained, true);
  });

  it('drops delayed adds on shutdown', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(60_000, 60_000));
    q.addRateLimited('a');
    q.shutDown();
    assert.equal(await q.get(), undefined);
  });
});

describe('ItemExponentialFailureRateLimiter', () => {
  const cases: { name: string; base: number; max: number; failures: number; want: number[] }[] = [
    { name: 'doubles per failure', base: 5, max: 1000, failures: 4, want: [5, 10, 20, 40] },
    { name: 'is capped', base: 100, max: 300, failures: 4, want: [100, 200, 300, 300] },
    { name: 'does not overflow after many failures', base: 1, max: 1000, failures: 100, want: [...Array.from({ length: 10 }, (_, i) => 2 ** i), ...Array<number>(90).fill(1000)] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = new ItemExponentialFailureRateLimiter<string>(c.base, c.max);
      assert.deepEqual(Array.from({ length: c.failures }, () => r.when('k')), c.want);
      assert.equal(r.numRequeues('k'), c.failures);
      assert.equal(r.when('other'), c.base, 'items back off independently');
    });
  }

  it('forget starts an item over', () => {
    const r = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    r.when('k'); r.when('k');
    r.forget('k');
    assert.equal(r.numRequeues('k'), 0);
    assert.equal(r.when('k'), 5);
  });
});

describe('runWorkers', () => {
  it('retries a failing key with backoff, forgets it on success, and ends on shutdown', async () => {
    const q = new RateLimitingQueue<string>(new ItemExponentialFailureRateLimiter(1, 4));
    const seen: string[] = [];
    const requeues: number[] = [];
    const logs: string[] = [];
    let fails = 3;
    const workers = runWorkers(q, 2, async (k) => {
      seen.push(k);
      requeues.push(q.numRequeues(k));
      if (k === 'bad' && fails-- > 0) throw new Error('boom');
      if (k === 'bad') q.shutDown();
    }, { name: 'test', log: (m) => logs.push(m) });
    q.add('good');
    q.add('bad');
    await workers;
    assert.deepEqual(seen.filter((k) => k === 'bad').length, 4);
    assert.deepEqual(requeues.filter((_, i) => seen[i] === 'bad'), [0, 1, 2, 3]);
    assert.equal(q.numRequeues('bad'), 0, 'forgotten after success');
    assert.equal(logs.length, 3);
  });

  it('processes one key in one worker at a time', async () => {
    const q = new RateLimitingQueue<string>();
    let inFlight = 0;
    let most = 0;
    let runs = 0;
    const workers = runWorkers(q, 4, async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      if (runs++ < 3) q.add('k');
      inFlight--;
      if (runs === 4) q.shutDown();
    }, { name: 'test' });
    q.add('k');
    await workers;
    assert.equal(most, 1);
    assert.equal(runs, 4);
  });
});
