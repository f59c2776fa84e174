import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, percentile, roundFigure } from './stats.ts';

test('median', async (t) => {
  const cases = [
    { name: 'empty', samples: [], want: Number.NaN },
    { name: 'one', samples: [4], want: 4 },
    { name: 'odd count, unsorted', samples: [9, 1, 5], want: 5 },
    { name: 'even count averages the middle pair', samples: [4, 1, 3, 2], want: 2.5 },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(median(c.samples), c.want));
  }
});

test('percentile', async (t) => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
  const cases = [
    { name: 'empty', samples: [], p: 99, want: Number.NaN },
    { name: 'p99 of 1..100', samples: hundred, p: 99, want: 99 },
    { name: 'p100 is the maximum', samples: hundred, p: 100, want: 100 },
    { name: 'p50 of 1..100', samples: hundred, p: 50, want: 50 },
    { name: 'tiny p is the minimum', samples: hundred, p: 0.001, want: 1 },
    { name: 'p99 of few samples is the maximum', samples: [3, 1, 2], p: 99, want: 3 },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(percentile(c.samples, c.p), c.want));
  }
  await t.test('rejects p outside (0, 100]', () => {
    assert.throws(() => percentile([1], 0), RangeError);
    assert.throws(() => percentile([1], 101), RangeError);
  });
});

test('roundFigure', async (t) => {
  const cases = [
    { name: 'large values lose decimals', value: 1234.56, want: 1235 },
    { name: 'tens keep one decimal', value: 12.345, want: 12.3 },
    { name: 'units keep two decimals', value: 1.2345, want: 1.23 },
    { name: 'fractions keep three decimals', value: 0.12345, want: 0.123 },
    { name: 'NaN stays NaN', value: Number.NaN, want: Number.NaN },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(roundFigure(c.value), c.want));
  }
});
