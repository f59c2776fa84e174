import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { flowSchemas } from './flowschema/flowschema.ts';
import { priorityLevelConfigurations } from './prioritylevelconfiguration/prioritylevelconfiguration.ts';
import type { FlowSchema, PriorityLevelConfiguration } from './v1/types.ts';

const ctx = systemContext();

describe('flowschemas', () => {
  const fs = (): FlowSchema => ({ metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'global-default' } } });
  it('defaults matchingPrecedence to 1000 and validates', () => {
    const o = fs();
    flowSchemas.defaults(o);
    assert.equal(o.spec?.matchingPrecedence, 1000);
    assert.deepEqual(flowSchemas.strategy.validate(ctx, o), []);
  });
  const cases: { name: string; obj: FlowSchema; want: string[] }[] = [
    { name: 'no priority level', obj: { metadata: { name: 'fs' }, spec: { matchingPrecedence: 10 } }, want: ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level'] },
    { name: 'precedence too high', obj: { metadata: { name: 'fs' }, spec: { matchingPrecedence: 10001, priorityLevelConfiguration: { name: 'x' } } },
      want: ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000'] },
    { name: 'bad distinguisher', obj: { metadata: { name: 'fs' }, spec: { matchingPrecedence: 2, priorityLevelConfiguration: { name: 'x' }, distinguisherMethod: { type: 'ByColor' } } },
      want: ['spec.distinguisherMethod.type: Unsupported value: {"Type":"ByColor"}: supported values: "ByNamespace", "ByUser"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(flowSchemas.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('resets status on create, keeps it on update, and status updates keep spec', () => {
    const o: FlowSchema = { ...fs(), status: { conditions: [{ type: 'Dangling', status: 'True' }] } };
    flowSchemas.strategy.prepareForCreate(ctx, o);
    assert.equal(o.status, undefined);
    assert.equal(o.metadata.generation, 1);
    const old: FlowSchema = { ...fs(), metadata: { name: 'fs', generation: 1 }, status: { conditions: [{ type: 'Dangling', status: 'False' }] } };
    const next: FlowSchema = { metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'other' } } };
    flowSchemas.strategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual([next.status, next.metadata.generation], [old.status, 2]);
    const viaStatus: FlowSchema = { metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'zzz' } }, status: { conditions: [] } };
    flowSchemas.statusStrategy.prepareForUpdate(ctx, viaStatus, old);
    assert.deepEqual([viaStatus.spec, viaStatus.status, viaStatus.metadata.generation], [old.spec, { conditions: [] }, 1]);
  });
  it('table', () => {
    assert.deepEqual(flowSchemas.table.map((c) => c.name), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
    const o: FlowSchema = { metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 500 } };
    assert.deepEqual(flowSchemas.table.map((c) => c.cell(o, 0)), ['fs', 'p', 500, '<none>', '<unknown>', '?']);
  });
});

describe('prioritylevelconfigurations', () => {
  it('defaults a limited queuing level', () => {
    const o: PriorityLevelConfiguration = { metadata: { name: 'p' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } };
    priorityLevelConfigurations.defaults(o);
    assert.deepEqual(o.spec?.limited, { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } } });
    assert.deepEqual(priorityLevelConfigurations.strategy.validate(ctx, o), []);
    assert.deepEqual(priorityLevelConfigurations.table.map((c) => c.cell(o, 0)), ['p', 'Limited', 30, 64, 8, 50, '<unknown>']);
  });
  const cases: { name: string; obj: PriorityLevelConfiguration; want: string[] }[] = [
    { name: 'limited without limited', obj: { metadata: { name: 'p' }, spec: { type: 'Limited' } }, want: ['spec.limited: Required value: must not be empty when type is Limited'] },
    { name: 'exempt with limited', obj: { metadata: { name: 'exempt' }, spec: { type: 'Exempt', limited: {} } }, want: [
      'spec.limited: Forbidden: must be nil if the type is not Limited',
      'spec: Invalid value: {"Type":"Exempt","Limited":{"NominalConcurrencyShares":0,"LimitResponse":{"Type":"","Queuing":null},"LendablePercent":null,"BorrowingLimitPercent":null},"Exempt":null}: ' +
        "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
    ] },
    { name: 'hand size above queues', obj: { metadata: { name: 'p' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 3, queueLengthLimit: 1 } } } } },
      want: ['spec.limited.limitResponse.queuing.handSize: Invalid value: 3: should not be greater than queues (2)'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(priorityLevelConfigurations.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));
  it('exempt table cells', () => {
    const o: PriorityLevelConfiguration = { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: {} } };
    assert.deepEqual(priorityLevelConfigurations.table.slice(1, 6).map((c) => c.cell(o, 0)), ['Exempt', '<none>', '<none>', '<none>', '<none>']);
  });
});
