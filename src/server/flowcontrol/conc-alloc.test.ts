import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeConcurrencyAllocation, Integrator, type AllocItem } from './conc-alloc.ts';

const item = (target: number, lowerBound: number, upperBound: number): AllocItem => ({ target, lowerBound, upperBound });

describe('computeConcurrencyAllocation', () => {
  const cases: { name: string; sum: number; items: AllocItem[]; want: number[]; fairProp: number }[] = [
    { name: 'bounds do not matter: proportional to the targets', sum: 60, items: [item(10, 0, 100), item(20, 0, 100)], want: [20, 40], fairProp: 2 },
    { name: 'one level at its upper bound, the rest shared', sum: 100, items: [item(10, 0, 15), item(10, 0, 200)], want: [15, 85], fairProp: 8.5 },
    { name: 'one level held at its lower bound', sum: 110, items: [item(50, 50, 100), item(500, 0, 1000)], want: [50, 60], fairProp: 0.12 },
    { name: 'lower bounds sum to the total', sum: 30, items: [item(10, 10, 40), item(50, 20, 40)], want: [10, 20], fairProp: 0.4 },
    { name: 'upper bounds sum to the total', sum: 80, items: [item(10, 10, 40), item(50, 20, 40)], want: [40, 40], fairProp: 4 },
    { name: 'zero total', sum: 0, items: [item(5, 0, 40)], want: [0], fairProp: 0 },
    { name: 'zero targets count as a thousandth', sum: 10, items: [item(0, 0, 100), item(0, 0, 100)], want: [5, 5], fairProp: 5000 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = computeConcurrencyAllocation(c.sum, c.items);
      assert.deepEqual(r.allocs.map((a) => Math.round(a * 1e9) / 1e9), c.want);
      assert.ok(Math.abs(r.fairProp - c.fairProp) < 1e-9, String(r.fairProp));
    });
  }
  const bad: { name: string; sum: number; items: AllocItem[]; message: RegExp }[] = [
    { name: 'negative sum', sum: -1, items: [], message: /negative sums/ },
    { name: 'negative lower bound', sum: 1, items: [item(1, -1, 2)], message: /negative lower bounds/ },
    { name: 'target below its lower bound', sum: 1, items: [item(1, 2, 3)], message: /below its lower bound/ },
    { name: 'upper below lower', sum: 1, items: [item(2, 2, 1)], message: /should not be less than the lower bound/ },
    { name: 'lower bounds above the sum', sum: 1, items: [item(5, 5, 6)], message: /higher than the required sum/ },
    { name: 'upper bounds below the sum', sum: 10, items: [item(5, 5, 6)], message: /lower than the required sum/ },
  ];
  for (const c of bad) it(`refuses: ${c.name}`, () => assert.throws(() => computeConcurrencyAllocation(c.sum, c.items), c.message));
});

describe('Integrator', () => {
  it('gives the time-weighted average, deviation and maximum of each period', () => {
    let now = 0;
    const g = new Integrator(() => now);
    g.set(2);
    now = 1000;
    g.set(6);
    now = 2000;
    const r = g.reset();
    assert.deepEqual(r, { durationMs: 2000, average: 4, deviation: 2, max: 6 });
    now = 3000;
    assert.deepEqual(g.reset(), { durationMs: 1000, average: 6, deviation: 0, max: 6 });
    assert.ok(Number.isNaN(g.reset().average), 'an empty period has no average');
  });
});
