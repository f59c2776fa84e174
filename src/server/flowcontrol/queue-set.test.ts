import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dealHand, nowNanos, QueueSet, type RequestDigest } from './queue-set.ts';

const digest = (flow: string): RequestDigest => ({
  flowSchema: 'fs', distinguisher: flow, arrived: nowNanos(), started: undefined, seats: 1, user: flow,
  info: { isResourceRequest: false, path: '/', verb: 'get', apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] },
});
const FAR = Date.now() + 60_000;

describe('dealHand', () => {
  const cases = [
    { name: 'small deck', hash: 12345, deck: 8, hand: 4 },
    { name: 'hand of the whole deck', hash: 987654321, deck: 6, hand: 6 },
    { name: 'large hash', hash: 2 ** 47 + 13, deck: 128, hand: 6 },
    { name: 'hash 0', hash: 0, deck: 16, hand: 4 },
  ];
  for (const c of cases) {
    it(`deals distinct cards within the deck: ${c.name}`, () => {
      const h = dealHand(c.hash, c.deck, c.hand);
      assert.equal(h.length, c.hand);
      assert.equal(new Set(h).size, c.hand);
      assert.ok(h.every((x) => Number.isInteger(x) && x >= 0 && x < c.deck), String(h));
      assert.deepEqual(dealHand(c.hash, c.deck, c.hand), h);
    });
  }
});

describe('QueueSet', () => {
  it('rejects at once when a level without queues has no seat free', async () => {
    const qs = new QueueSet({ queues: 0, handSize: 0, queueLengthLimit: 0 });
    qs.concurrencyLimit = 1;
    const a = digest('a');
    assert.equal(await qs.startRequest(a, 0, FAR), 'dispatched');
    assert.equal(await qs.startRequest(digest('a'), 0, FAR), 'rejected');
    qs.finish(a);
    assert.equal(await qs.startRequest(digest('a'), 0, FAR), 'dispatched');
    assert.deepEqual([qs.dispatched, qs.rejected], [2, 1]);
  });

  it('queues up to the queue length limit, then rejects', async () => {
    const qs = new QueueSet({ queues: 1, handSize: 1, queueLengthLimit: 2 });
    qs.concurrencyLimit = 1;
    const running = digest('a');
    assert.equal(await qs.startRequest(running, 7, FAR), 'dispatched');
    const w1 = qs.startRequest(digest('a'), 7, FAR);
    const w2 = qs.startRequest(digest('a'), 7, FAR);
    assert.equal(await qs.startRequest(digest('a'), 7, FAR), 'rejected');
    assert.equal(qs.waitingCount, 2);
    qs.finish(running);
    assert.equal(await w1, 'dispatched');
    assert.equal(qs.waitingCount, 1);
    void w2;
  });

  it('times out a wait past its limit, and cancels one whose client went away', async () => {
    const qs = new QueueSet({ queues: 4, handSize: 2, queueLengthLimit: 10 });
    qs.concurrencyLimit = 1;
    assert.equal(await qs.startRequest(digest('a'), 1, FAR), 'dispatched');
    assert.equal(await qs.startRequest(digest('b'), 2, Date.now() + 10), 'time-out');
    let cancel = (): void => {};
    const p = qs.startRequest(digest('c'), 3, FAR, (c) => { cancel = c; return () => {}; });
    cancel();
    assert.equal(await p, 'cancelled');
    assert.deepEqual([qs.timedOut, qs.cancelled, qs.waitingCount], [1, 1, 0]);
  });

  it('serves a light flow before most of a heavy one that queued first', async () => {
    const qs = new QueueSet({ queues: 64, handSize: 1, queueLengthLimit: 100 });
    qs.concurrencyLimit = 1;
    const order: string[] = [];
    const blocker = digest('heavy');
    assert.equal(await qs.startRequest(blocker, 1, FAR), 'dispatched');
    const run = async (flow: string, hash: number): Promise<void> => {
      const d = digest(flow);
      assert.equal(await qs.startRequest(d, hash, FAR), 'dispatched');
      order.push(flow);
      await Promise.resolve();
      qs.finish(d);
    };
    const all = [...Array.from({ length: 10 }, () => run('heavy', 1)), run('light', 2)];
    qs.finish(blocker);
    await Promise.all(all);
    assert.ok(order.indexOf('light') <= 2, order.join(','));
  });
});

describe('QueueSet seats of the work estimate', () => {
  it('holds a wide request\'s seats, and a write\'s final seats a while after it finished', async () => {
    const qs = new QueueSet({ queues: 4, handSize: 2, queueLengthLimit: 10 });
    qs.concurrencyLimit = 10;
    const demand: number[] = [];
    qs.onDemand = (s) => demand.push(s);
    const wide = { ...digest('a'), seats: 8 };
    assert.equal(qs.startRequest(wide, 1, FAR), 'dispatched');
    assert.equal(qs.seatsUsed, 8);
    // Three more seats do not fit next to eight: the request waits.
    const waiting = qs.startRequest({ ...digest('b'), seats: 3 }, 2, FAR);
    assert.ok(waiting instanceof Promise);
    assert.equal(qs.waitingSeats, 3);
    qs.finish(wide);
    assert.equal(await waiting, 'dispatched');
    assert.deepEqual([qs.seatsUsed, qs.waitingSeats], [3, 0]);
    // A write with 1 seat while running and 5 seats for 20 ms after: it holds 5 while running.
    const write = { ...digest('c'), seats: 1, finalSeats: 5, additionalLatencyMs: 20 };
    assert.equal(qs.startRequest(write, 3, FAR), 'dispatched');
    assert.equal(qs.seatsUsed, 8);
    qs.finish(write);
    assert.equal(qs.seatsUsed, 8, 'the final seats stay held after it finished');
    assert.equal(qs.executingCount, 1, 'though it no longer executes');
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(qs.seatsUsed, 3);
    assert.deepEqual(demand.slice(0, 3), [8, 11, 3]);
  });
});
