import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanDuration, translateTimestampSince } from './printers.ts';

describe('humanDuration', () => {
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  const cases = [
    { name: 'negative small', ms: -500, want: '0s' },
    { name: 'negative', ms: -5 * s, want: '<invalid>' },
    { name: 'seconds', ms: 5 * s, want: '5s' },
    { name: 'under two minutes', ms: 119 * s, want: '119s' },
    { name: 'minutes and seconds', ms: 3 * m + 2 * s, want: '3m2s' },
    { name: 'whole minutes', ms: 5 * m, want: '5m' },
    { name: 'ten minutes', ms: 10 * m + 30 * s, want: '10m' },
    { name: 'hours and minutes', ms: 5 * h + 30 * m, want: '5h30m' },
    { name: 'three hours is minutes', ms: 2 * h + 59 * m, want: '179m' },
    { name: 'hours', ms: 12 * h, want: '12h' },
    { name: 'days and hours', ms: 3 * d + 4 * h, want: '3d4h' },
    { name: 'days', ms: 20 * d, want: '20d' },
    { name: 'years and days', ms: 2 * 365 * d + 30 * d, want: '2y30d' },
    { name: 'years', ms: 9 * 365 * d, want: '9y' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(humanDuration(c.ms), c.want));
  it('translateTimestampSince', () => {
    assert.equal(translateTimestampSince(undefined, 0), '<unknown>');
    assert.equal(translateTimestampSince('2024-01-01T00:00:00Z', Date.parse('2024-01-01T00:00:42Z')), '42s');
  });
});
