import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MANDATORY_PL_CATCH_ALL, MANDATORY_PL_EXEMPT } from './bootstrap.ts';
import { APFController } from './controller.ts';
import { dumpPriorityLevels, dumpQueues, dumpRequests, goDuration, rfc3339Nano, tabulate } from './dump.ts';

describe('the dump endpoints', () => {
  it("align as Go's tabwriter aligns kube's (text of kube-apiserver v1.36)", () => {
    const c = new APFController(600);
    c.update([], [MANDATORY_PL_EXEMPT, MANDATORY_PL_CATCH_ALL]);
    assert.equal(dumpPriorityLevels(c),
      'PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests\n'
      + 'catch-all,         0,            true,   false,       0,               0,                 0,                  0,                0,                0\n'
      + 'exempt,            0,            true,   false,       0,               0,                 0,                  0,                0,                0\n');
    assert.equal(dumpQueues(c), 'PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum\n');
    assert.equal(dumpRequests(c, false),
      'PriorityLevelName, FlowSchemaName, QueueIndex, RequestIndexInQueue, FlowDistingsher, ArriveTime, InitialSeats, FinalSeats, AdditionalLatency, StartTime\n');
  });

  it('keeps the last column unpadded and every other at least 8 wide', () => {
    assert.equal(tabulate([['a', 'b', 'c'], ['long-name', '', 'x']]), 'a,         b,      c\nlong-name, ,       x\n');
  });

  it("prints times as Go's RFC3339Nano", () => {
    assert.equal(rfc3339Nano(1_764_067_180_568_888_352n), '2025-11-25T10:39:40.568888352Z');
    assert.equal(rfc3339Nano(1_764_067_180_500_000_000n), '2025-11-25T10:39:40.5Z');
    assert.equal(rfc3339Nano(1_764_067_180_000_000_000n), '2025-11-25T10:39:40Z');
  });

  it("prints a request's additional latency as Go prints a duration", () => {
    const cases: [number, string][] = [[0, '0s'], [0.5, '500µs'], [5, '5ms'], [12.5, '12.5ms'], [1500, '1.5s']];
    for (const [ms, want] of cases) assert.equal(goDuration(ms), want, String(ms));
  });
});
