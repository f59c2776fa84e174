import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { PriorityClass } from '../v1/types.ts';
import { defaultPriorityClass, priorityClasses } from './priorityclass.ts';
import { systemPriorityClasses } from './system.ts';

const ctx = systemContext();
const pc = (name: string, extra: Partial<PriorityClass> = {}): PriorityClass => {
  const o: PriorityClass = { metadata: { name }, value: 1000, ...extra };
  defaultPriorityClass(o);
  return o;
};

describe('priorityclasses', () => {
  it('defaults preemptionPolicy', () => assert.equal(pc('high').preemptionPolicy, 'PreemptLowerPriority'));

  const cases: { name: string; obj: PriorityClass; want: string[] }[] = [
    { name: 'valid', obj: pc('high'), want: [] },
    { name: 'system class as kube creates it', obj: pc('system-node-critical', { value: 2000001000 }), want: [] },
    { name: 'unknown system- name', obj: pc('system-foo'),
      want: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class"] },
    { name: 'system class with another value', obj: pc('system-cluster-critical', { value: 5 }),
      want: ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"] },
    { name: 'value too high', obj: pc('high', { value: 1000000001 }), want: ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000'] },
    { name: 'bad preemption policy', obj: pc('high', { preemptionPolicy: 'Sometimes' }),
      want: ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(priorityClasses.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('value and preemptionPolicy are immutable; description is not', () => {
    const old = pc('high');
    assert.deepEqual(priorityClasses.strategy.validateUpdate(ctx, pc('high', { value: 7, preemptionPolicy: 'Never' }), old).map(formatFieldError), [
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ]);
    assert.deepEqual(priorityClasses.strategy.validateUpdate(ctx, pc('high', { description: 'd', globalDefault: true }), old), []);
  });

  it('exports the two system classes, which pass validation', () => {
    const classes = systemPriorityClasses();
    assert.deepEqual(classes.map((c) => [c.metadata.name, c.value]), [['system-node-critical', 2000001000], ['system-cluster-critical', 2000000000]]);
    for (const c of classes) assert.deepEqual(priorityClasses.strategy.validate(ctx, c), []);
  });

  it('table: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', () => {
    assert.deepEqual(priorityClasses.table.map((c) => [c.name, c.type, c.priority ?? 0]), [
      ['Name', 'string', 0], ['Value', 'integer', 0], ['Global-Default', 'boolean', 0], ['Age', 'string', 0], ['PreemptionPolicy', 'string', 0],
    ]);
    const o = pc('high', { globalDefault: true });
    assert.deepEqual(priorityClasses.table.map((c) => c.cell(o, 0)), ['high', 1000, true, '<unknown>', 'PreemptLowerPriority']);
  });
});
