import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { RuntimeClass } from '../v1/types.ts';
import { runtimeClasses } from './runtimeclass.ts';

const ctx = systemContext();
const rc = (handler: string): RuntimeClass => ({ metadata: { name: 'gvisor' }, handler });

describe('runtimeclasses', () => {
  const cases: { name: string; obj: RuntimeClass; want: string[] }[] = [
    { name: 'valid', obj: rc('runsc'), want: [] },
    { name: 'handler not a DNS label', obj: rc('Run_SC'),
      want: ["handler: Invalid value: \"Run_SC\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(runtimeClasses.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));
  it('handler is immutable', () => {
    assert.deepEqual(runtimeClasses.strategy.validateUpdate(ctx, rc('kata'), rc('runsc')).map(formatFieldError), ['handler: Invalid value: "kata": field is immutable']);
  });
  it('table', () => assert.deepEqual(runtimeClasses.table.map((c) => c.cell(rc('runsc'), 0)), ['gvisor', 'runsc', '<unknown>']));
});
