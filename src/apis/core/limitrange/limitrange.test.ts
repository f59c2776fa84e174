import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LimitRange, LimitRangeItem } from '../v1/types.ts';
import { defaultLimitRange } from './limitrange.ts';

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
