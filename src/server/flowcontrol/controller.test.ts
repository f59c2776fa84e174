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
    // A new level starts at its nominal limit less half of what it may lend.
    assert.equal(c.levels.get('workload-low')?.queues.concurrencyLimit, 245 - Math.floor(221 / 2));
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

  it('rebalance lends the seats idle levels can lend to a busy one', () => {
    const c = new APFController(600);
    c.update(FSS, PLS);
    const busy = c.levels.get('global-default');
    assert.ok(busy !== undefined);
    busy.peakDemand = 400;
    c.rebalance();
    // Everyone else idle at their floors: global-default may take what is left, up to its maximum.
    assert.ok(busy.queues.concurrencyLimit > busy.nominalCL, String(busy.queues.concurrencyLimit));
    assert.ok(busy.queues.concurrencyLimit <= busy.maxCL);
    for (const [name, s] of c.levels) if (name !== 'global-default') assert.equal(s.queues.concurrencyLimit, s.minCL, name);
  });
});
