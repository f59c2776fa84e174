import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import { MANDATORY_FS_CATCH_ALL, MANDATORY_FS_EXEMPT, MANDATORY_PL_CATCH_ALL, MANDATORY_PL_EXEMPT, SUGGESTED_FSS, SUGGESTED_PLS } from './bootstrap.ts';
import { APFController } from './controller.ts';
import type { FlowSchema, PriorityLevelConfiguration } from './types.ts';

const withUID = <T extends { metadata: { name?: string } }>(o: T): T => ({ ...o, metadata: { ...o.metadata, uid: `uid-${o.metadata.name ?? ''}` } });
const PLS: PriorityLevelConfiguration[] = [MANDATORY_PL_EXEMPT, MANDATORY_PL_CATCH_ALL, ...SUGGESTED_PLS].map(withUID);
const FSS: FlowSchema[] = [MANDATORY_FS_EXEMPT, MANDATORY_FS_CATCH_ALL, ...SUGGESTED_FSS].map(withUID);
const ri = parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams());

describe('APFController', () => {
  it('divides the server limit by shares, rounding up, as kube (600 seats, the bootstrap levels)', () => {
    const c = new APFController(600);
    c.update(FSS, PLS);
    const nominal = Object.fromEntries([...c.levels].map(([n, s]) => [n, [s.nominalCL, s.minCL, s.maxCL]]));
    assert.deepEqual(nominal, {
      // [nominal, nominal − lendable, nominal + borrowing (unbounded: the server limit)]
      exempt: [0, 0, 600], 'catch-all': [13, 13, 613], system: [74, 50, 674], 'node-high': [98, 73, 698], 'leader-election': [25, 25, 625],
      'workload-high': [98, 49, 698], 'workload-low': [245, 24, 845], 'global-default': [49, 24, 649],
    });
    // Without demand yet, the levels share the server's seats in proportion to what they may not
    // lend (the figures kube-apiserver v1.36 reports as apiserver_flowcontrol_current_limit_seats at start).
    const current = Object.fromEntries([...c.levels].map(([n, s]) => [n, s.queues.concurrencyLimit]));
    assert.deepEqual(current, { exempt: 0, 'catch-all': 30, system: 117, 'node-high': 170, 'leader-election': 58,
      'workload-high': 114, 'workload-low': 56, 'global-default': 56 });
    assert.ok(Math.abs(c.fairFrac - 602 / 258) < 1e-9, String(c.fairFrac));
  });

  it('imagines the mandatory objects while they are missing, and matches by precedence then name', () => {
    const c = new APFController(600);
    c.update([], []);
    assert.deepEqual(c.matchingOrder(), ['exempt', 'catch-all']);
    assert.equal(c.classify(ri, { name: 'a', groups: ['system:masters'] }).level.pl.metadata.name, 'exempt');
    assert.equal(c.classify(ri, { name: 'a', groups: ['system:authenticated'] }).flowSchema.metadata.name, 'catch-all');
    c.update(FSS, PLS);
    assert.deepEqual(c.matchingOrder().slice(0, 4), ['exempt', 'probes', 'system-leader-election', 'system-node-high']);
    const cl = c.classify(ri, { name: 'alice', groups: ['system:authenticated'] });
    assert.deepEqual([cl.flowSchema.metadata.uid, cl.level.pl.metadata.uid, cl.distinguisher], ['uid-global-default', 'uid-global-default', 'alice']);
  });

  it('reports each FlowSchema whose Dangling condition is not what it should be', () => {
    const c = new APFController(600, () => Date.UTC(2026, 0, 2, 3, 4, 5, 600));
    const dangling: FlowSchema = { metadata: { name: 'd' }, spec: { priorityLevelConfiguration: { name: 'missing' } } };
    const good: FlowSchema = { metadata: { name: 'g' }, spec: { priorityLevelConfiguration: { name: 'system' } },
      status: { conditions: [{ type: 'Dangling', status: 'False', reason: 'Found',
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "system" and it exists' }] } };
    const updates = c.update([dangling, good], PLS);
    assert.deepEqual(updates, [{ name: 'd', condition: { type: 'Dangling', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'NotFound',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "missing" but there is no such object' } }]);
    assert.ok(!c.matchingOrder().includes('d'));
  });

  it('ignores a level whose spec is broken, leaving its FlowSchemas dangling', () => {
    const c = new APFController(600);
    const broken: PriorityLevelConfiguration = { metadata: { name: 'b' }, spec: { type: 'Limited' } };
    const fs: FlowSchema = { metadata: { name: 'f' }, spec: { priorityLevelConfiguration: { name: 'b' } } };
    const updates = c.update([fs], [...PLS, broken]);
    assert.equal(c.levels.has('b'), false);
    assert.equal(updates[0]?.condition.status, 'True');
  });

  it('lends what idle levels may lend to a busy one, every adjustment period', () => {
    let now = 0;
    const c = new APFController(600, () => now);
    c.update(FSS, PLS);
    const busy = c.levels.get('global-default');
    assert.ok(busy !== undefined);
    // 400 seats of demand for the whole period.
    busy.seatDemand.set(400);
    now += 10_000;
    c.updateBorrowing();
    assert.deepEqual([busy.demand.highWatermark, busy.demand.avg, busy.demand.stdDev, busy.demand.smoothed], [400, 400, 0, 400]);
    // Its floor is its nominal seats (49), its target 400; the others' floors are what they may not lend.
    assert.equal(busy.target, 400);
    const others = [...c.levels.values()].filter((s) => s !== busy && s.queues.config.queues >= 0);
    const othersFloor = others.reduce((n, s) => n + s.minCL, 0);
    const total = [...c.levels.values()].reduce((n, s) => n + s.queues.concurrencyLimit, 0);
    assert.ok(busy.queues.concurrencyLimit > busy.nominalCL && busy.queues.concurrencyLimit <= 400, String(busy.queues.concurrencyLimit));
    assert.ok(Math.abs(total - 602) <= others.length, `the seats add up to the server's: ${total}`);
    for (const s of others) assert.ok(s.queues.concurrencyLimit >= s.minCL, s.pl.metadata.name);
    assert.ok(others.reduce((n, s) => n + s.queues.concurrencyLimit, 0) >= othersFloor);
    // The demand goes away: the smoothed demand decays slowly (0.977 per period), the limit follows.
    busy.seatDemand.set(0);
    now += 10_000;
    c.updateBorrowing();
    // The high watermark counts the period's start (400); the average is 0.
    assert.deepEqual([busy.demand.highWatermark, busy.demand.avg], [400, 0]);
    assert.ok(Math.abs(busy.demand.smoothed - 0.977 * 400) < 1e-9, String(busy.demand.smoothed));
  });

  it('gives the exempt level what it used, off what the others share', () => {
    let now = 0;
    const c = new APFController(600, () => now);
    c.update(FSS, PLS);
    c.levels.get('exempt')?.seatDemand.set(100);
    now += 10_000;
    c.updateBorrowing();
    assert.equal(c.levels.get('exempt')?.queues.concurrencyLimit, 100);
    // The limited levels now share 602 seats still (kube divides nominalCLSum among them once the floors fit).
    assert.ok(Math.abs(c.fairFrac - 602 / 258) < 1e-9, String(c.fairFrac));
  });

  it('caps the seats of one request at 15% of the nominal seats, or nominal / handSize', () => {
    const c = new APFController(600);
    c.update(FSS, PLS);
    assert.deepEqual(Object.fromEntries([...c.levels.keys()].map((n) => [n, c.maxSeatsOf(n)])), {
      exempt: 0, 'catch-all': 0, system: 12, 'node-high': 15, 'leader-election': 4, 'workload-high': 15, 'workload-low': 37, 'global-default': 8,
    });
  });
});
