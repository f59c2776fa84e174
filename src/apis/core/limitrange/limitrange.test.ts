import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LimitRange, LimitRangeItem } from '../v1/types.ts';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { defaultLimitRange, validateLimitRange } from './limitrange.ts';

const lr = (...limits: LimitRangeItem[]): LimitRange => ({ metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } });

describe('LimitRange defaults (SetDefaults_LimitRangeItem)', () => {
  it('defaults a Container item\'s default from max and its defaultRequest from default, then min', () => {
    const r = lr({ type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' }, default: { memory: '512Mi' } },
      { type: 'Pod', max: { cpu: '4' } });
    defaultLimitRange(r);
    assert.deepEqual(r.spec?.limits, [
      { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
        default: { memory: '512Mi', cpu: '2' }, defaultRequest: { memory: '512Mi', cpu: '2', 'ephemeral-storage': '1Gi' } },
      { type: 'Pod', max: { cpu: '4' } },
    ]);
  });
  it('adds no empty maps', () => {
    const r = lr({ type: 'Container' });
    defaultLimitRange(r);
    assert.deepEqual(r.spec?.limits, [{ type: 'Container' }]);
  });
});

describe('LimitRange keys named like Object.prototype members', () => {
  it('are compared only with their own counterparts (no 500)', () => {
    const cases = [
      { name: 'min without max of that name', item: { type: 'Container', min: { toString: '1' }, max: { cpu: '1' } } },
      { name: 'default without max of that name', item: { type: 'Container', default: { constructor: '1' }, max: { cpu: '1' } } },
    ];
    for (const c of cases) {
      const errs = validateLimitRange(lr(c.item)).map(formatFieldError);
      assert.ok(errs.every((e) => !e.includes('greater than max')), c.name);
    }
  });

  it('default like any other resource name', () => {
    const r = lr(JSON.parse('{"type":"Container","max":{"__proto__":"2","toString":"3"}}') as LimitRangeItem);
    defaultLimitRange(r);
    const item = r.spec?.limits[0];
    assert.equal(JSON.stringify(item?.default), '{"__proto__":"2","toString":"3"}');
    assert.equal(JSON.stringify(item?.defaultRequest), '{"__proto__":"2","toString":"3"}');
  });
});

describe('LimitRange ordering rules (ValidateLimitRange), as kube-apiserver v1.36 answers', () => {
  const errs = (...limits: LimitRangeItem[]): string[] => { const r = lr(...limits); defaultLimitRange(r); return validateLimitRange(r).map(formatFieldError).sort(); };
  const cases: { name: string; item: LimitRangeItem; want: string[] }[] = [
    { name: 'type neither standard nor qualified', item: { type: 'Bogus', max: { cpu: '1' } }, want: ['spec.limits[0].type: Invalid value: "Bogus": must be a standard limit type or fully qualified'] },
    { name: 'qualified custom type', item: { type: 'example.com/thing', max: { 'example.com/x': '1' } }, want: [] },
    { name: 'negative quantities are not checked', item: { type: 'PersistentVolumeClaim', max: { storage: '-1' } }, want: [] },
    { name: 'pod defaultRequest', item: { type: 'Pod', defaultRequest: { cpu: '1' } }, want: ['spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is \'Pod\''] },
    { name: 'pvc without storage bounds', item: { type: 'PersistentVolumeClaim', max: { cpu: '1' } },
      want: ['spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided'] },
    { name: 'min above max, canonical quantities', item: { type: 'Container', min: { cpu: '1.5' }, max: { cpu: '1000m' } }, want: [
      'spec.limits[0].default[cpu]: Invalid value: "1500m": min value 1500m is greater than default value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 1500m is greater than default request value 1',
      'spec.limits[0].min[cpu]: Invalid value: "1500m": min value 1500m is greater than max value 1'] },
    { name: 'defaultRequest above default', item: { type: 'Container', defaultRequest: { cpu: '2' }, default: { cpu: '1' } },
      want: ['spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than default limit value 1'] },
    { name: 'ratio below 1', item: { type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }, want: ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1'] },
    { name: 'ratio above max/min', item: { type: 'Container', min: { cpu: '100m' }, max: { cpu: '200m' }, maxLimitRequestRatio: { cpu: '3' } }, want: [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000'] },
    { name: 'huge pages may not overcommit', item: { type: 'Container', default: { 'hugepages-2Mi': '4Mi' }, defaultRequest: { 'hugepages-2Mi': '2Mi' } }, want: [
      'spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errs(c.item), [...c.want].sort()));
});
