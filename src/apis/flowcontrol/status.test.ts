import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { flowSchemas } from './flowschema/flowschema.ts';
import { priorityLevelConfigurations } from './prioritylevelconfiguration/prioritylevelconfiguration.ts';
import { validateFlowControlStatus } from './status.ts';

describe('FlowSchema and PriorityLevelConfiguration status (Validate*StatusUpdate)', () => {
  const cases: { name: string; conditions: Record<string, unknown>[]; want: string[] }[] = [
    { name: 'typed conditions', conditions: [{ type: 'Dangling', status: 'True' }, { type: 'Other', status: 'Bogus' }], want: [] },
    { name: 'a condition without a type', conditions: [{ status: 'True' }], want: ['status.conditions[0].type: Required value'] },
    { name: 'a repeated type', conditions: [{ type: 'Dangling' }, { type: 'Dangling' }], want: ['status.conditions[1].type: Duplicate value: "Dangling"'] },
    { name: 'two typeless conditions are also duplicates', conditions: [{}, {}],
      want: ['status.conditions[0].type: Required value', 'status.conditions[1].type: Duplicate value: ""', 'status.conditions[1].type: Required value'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validateFlowControlStatus({ status: { conditions: c.conditions } }).map(formatFieldError), c.want));

  it('both status strategies run it', () => {
    const ctx = systemContext('');
    for (const def of [flowSchemas, priorityLevelConfigurations]) {
      const old = { metadata: { name: 'x', resourceVersion: '1' }, spec: {} };
      const next = { ...structuredClone(old), status: { conditions: [{ status: 'True' }] } };
      def.statusStrategy.prepareForUpdate(ctx, next as never, old as never);
      assert.deepEqual(def.statusStrategy.validateUpdate(ctx, next as never, old as never).map(formatFieldError), ['status.conditions[0].type: Required value']);
    }
  });
});
