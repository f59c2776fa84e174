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
