import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { isTrackingDate, trackingChange, trackingDate } from './legacy-token-tracking.ts';

const cm = (data?: Record<string, string>): KubeObject => ({ metadata: { name: 'x', namespace: 'kube-system' }, ...(data === undefined ? {} : { data }) }) as KubeObject;

describe('legacy token tracking ConfigMap', () => {
  it('records today as YYYY-MM-DD in UTC', () => {
    assert.equal(trackingDate(new Date('2026-11-25T23:59:59-05:00')), '2026-11-26');
  });

  it('accepts what Go\'s time.Parse("2006-01-02") accepts', () => {
    const cases = [
      { name: 'a date', v: '2026-11-25', ok: true },
      { name: 'leap day', v: '2024-02-29', ok: true },
      { name: 'no leap day', v: '2023-02-29', ok: false },
      { name: 'month 13', v: '2026-13-01', ok: false },
      { name: 'one-digit month', v: '2026-1-01', ok: false },
      { name: 'a timestamp', v: '2026-11-25T00:00:00Z', ok: false },
      { name: 'empty', v: '', ok: false },
      { name: 'missing', v: undefined, ok: false },
    ];
    for (const c of cases) assert.equal(isTrackingDate(c.v), c.ok, c.name);
  });

  it('creates the ConfigMap when missing, repairs a bad date, leaves a good one', () => {
    const cases = [
      { name: 'missing', existing: undefined, want: 'create' },
      { name: 'no data', existing: cm(), want: 'update' },
      { name: 'bad since', existing: cm({ since: 'yesterday' }), want: 'update' },
      { name: 'since only inherited', existing: cm(Object.create({ since: '2026-01-01' }) as Record<string, string>), want: 'update' },
      { name: 'good since', existing: cm({ since: '2020-01-01' }), want: undefined },
    ];
    for (const c of cases) assert.equal(trackingChange(c.existing), c.want, c.name);
  });
});
