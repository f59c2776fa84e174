// cel-go's cost and size estimates: [min, max] ranges of unsigned 64-bit integers that saturate
// instead of overflowing, and a cost per unit that rounds up.
// Go counterpart: github.com/google/cel-go/checker/cost.go (CostEstimate, SizeEstimate).

/** math.MaxUint64 (as the nearest double, which is what saturated arithmetic compares against). */
export const MAX_UINT64 = 18446744073709551615;

export interface Estimate {
  readonly min: number;
  readonly max: number;
}

export const fixed = (n: number): Estimate => ({ min: n, max: n });
export const UNKNOWN_SIZE: Estimate = { min: 0, max: MAX_UINT64 };
export const ZERO: Estimate = fixed(0);

const add1 = (x: number, y: number): number => (y > 0 && x > MAX_UINT64 - y ? MAX_UINT64 : Math.min(x + y, MAX_UINT64));
const mul1 = (x: number, y: number): number => (y !== 0 && x > MAX_UINT64 / y ? MAX_UINT64 : x * y);
const factor1 = (x: number, f: number): number => {
  if (x > 0 && f > 0 && x > MAX_UINT64 / f) return MAX_UINT64;
  const c = Math.ceil(x * f);
  return c >= MAX_UINT64 ? MAX_UINT64 : c;
};

export const add = (a: Estimate, b: Estimate): Estimate => ({ min: add1(a.min, b.min), max: add1(a.max, b.max) });
export const mul = (a: Estimate, b: Estimate): Estimate => ({ min: mul1(a.min, b.min), max: mul1(a.max, b.max) });
export const byFactor = (a: Estimate, f: number): Estimate => ({ min: factor1(a.min, f), max: factor1(a.max, f) });
export const union = (a: Estimate, b: Estimate): Estimate => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
export const sum = (xs: readonly Estimate[]): Estimate => xs.reduce(add, ZERO);

export const STRING_TRAVERSAL = 0.1;
export const REGEX_LENGTH = 0.25;
export const LIST_CREATE = 10;
export const MAP_CREATE = 30;
