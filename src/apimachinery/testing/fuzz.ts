// Property-based fuzzing helpers (fast-check) shared by the decoder and patch-engine fuzzers of
// issue 9: arbitraries that produce hostile shapes (deep nesting, huge and prototype-named keys,
// unicode, out-of-range numbers), and a runner with a fixed seed and a bounded run count so
// `npm test` stays fast and a failure names the seed and path that reproduce it.
// No Go counterpart: test helpers.
import fc from 'fast-check';
import { StatusError } from '../errors/status-error.ts';

/** Keys that a plain-object lookup would confuse with Object.prototype's members. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];

/** Object keys: short names, prototype names, unicode, kube-ish keys, and the odd huge one. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'b', 'name', 'data', 'metadata', 'spec', 'items', 'f:a', '.', '', 'k.v/x', '$patch', '$retainKeys') },
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 5000 }) },
);

/** Leaf values, including numbers JSON cannot carry exactly. */
const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, 5e-324),
  fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom(...PROTO_KEYS),
);

/** JSON values with hostile keys, at most a few levels deep (deep nesting has its own arbitrary). */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    hostileLeaf,
    fc.array(tie('v'), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie('v'), { maxKeys: 5, noNullPrototype: true })),
})).v;

/** Text of a JSON value nested `depth` levels in arrays or objects (built as text: no recursion). */
export function nestedText(depth: number, kind: 'array' | 'object', leaf = '1'): string {
  return kind === 'array' ? '['.repeat(depth) + leaf + ']'.repeat(depth) : '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

/** Deeply nested JSON text: up to 20000 levels (past Go's 10000 cap and V8's recursion depth). */
export const deepText: fc.Arbitrary<string> = fc.record({
  depth: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 900, max: 20_000 })),
  kind: fc.constantFrom<'array' | 'object'>('array', 'object'),
}).map(({ depth, kind }) => nestedText(depth, kind));

/** Raw number literals that parse to Infinity, lose precision, or are not JSON at all. */
const hostileNumberText: fc.Arbitrary<string> = fc.constantFrom(
  '1e309', '-1e309', '1E400', '123456789012345678901234567890', '0.1e-400', '-0', '01', '1.', '.5', '0x10', 'NaN', 'Infinity', '1e+', '--1');

/** Raw JSON text with hostile fragments spliced into a ConfigMap-shaped document. */
export const hostileJSONText: fc.Arbitrary<string> = fc.oneof(
  hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
  hostileValue.map((v) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":${JSON.stringify(v) ?? 'null'}}`),
  deepText.map((t) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"extra":${t}}`),
  hostileNumberText.map((n) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","generation":${n}},"data":{"a":${n}}}`),
  fc.constantFrom('', '{', '}', '[', '"', '{"a":}', '{"a" "b"}', '{"data":{"a":"b","a":"c"}}', '\ufeff{}', '{"\\ud800":"x"}', 'null', '[]', '"x"'),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

export interface FuzzOptions {
  readonly seed: number;
  readonly numRuns: number;
}

/**
 * Runs `property` with a fixed seed; on failure throws an error that starts with the seed, the
 * counterexample path and fast-check's report (replay with { seed, path }).
 */
export function fuzz<T>(arb: fc.Arbitrary<T>, property: (v: T) => void, opts: FuzzOptions): void {
  report(fc.check(fc.property(arb, property), { seed: opts.seed, numRuns: opts.numRuns, endOnFailure: true }), opts);
}

const clip = (text: string, max = 600): string => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

// Hostile counterexamples are megabytes long: the report keeps their start and the error.
function report<T>(out: fc.RunDetails<[T]>, opts: FuzzOptions): void {
  if (!out.failed) return;
  const err = out.errorInstance;
  const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  throw new Error(`fuzz failed with seed ${opts.seed}, path ${out.counterexamplePath ?? '?'} (replay: { seed, path }):\n` +
    `  counterexample: ${clip(printable(out.counterexample?.[0]))}\n  error: ${clip(why)}`);
}

function printable(v: unknown): string {
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return '(too deep to print: replay it with the seed and path)';
  }
}

/** Async variant of fuzz. */
export async function fuzzAsync<T>(arb: fc.Arbitrary<T>, property: (v: T) => Promise<void>, opts: FuzzOptions): Promise<void> {
  report(await fc.check(fc.asyncProperty(arb, property), { seed: opts.seed, numRuns: opts.numRuns, endOnFailure: true }), opts);
}

/**
 * The invariant for client input: a thrown error is a StatusError with a 4xx code, or one of the
 * module's own documented error classes (which its handler maps to 4xx). Anything else (a
 * TypeError, a RangeError from a stack overflow, a 5xx StatusError) fails the property.
 */
export function expectClientError(err: unknown, allowed: readonly (abstract new (...args: never[]) => Error)[] = []): void {
  if (err instanceof StatusError) {
    if (err.status.code >= 500) throw new Error(`5xx for client input: ${err.status.code} ${err.status.message}`);
    return;
  }
  if (allowed.some((cls) => err instanceof cls)) return;
  throw err instanceof Error ? err : new Error(`threw a non-Error: ${String(err)}`);
}

/** Calls fn; a thrown error must satisfy expectClientError. Returns fn's result or undefined. */
export function clientSafe<T>(fn: () => T, allowed: readonly (abstract new (...args: never[]) => Error)[] = []): T | undefined {
  try {
    return fn();
  } catch (err) {
    expectClientError(err, allowed);
    return undefined;
  }
}

/**
 * About the length of JSON.stringify(v), computed without recursion (JSON.stringify overflows
 * V8's stack on values a few thousand levels deep, which the fuzzers produce on purpose).
 */
export function jsonSize(v: unknown): number {
  let total = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      total += 2 + Math.max(0, x.length - 1);
      for (const e of x) stack.push(e);
    } else if (typeof x === 'object' && x !== null) {
      const keys = Object.keys(x);
      total += 2 + Math.max(0, keys.length - 1);
      for (const k of keys) {
        total += k.length + 3;
        stack.push((x as Record<string, unknown>)[k]);
      }
    } else if (typeof x === 'string') {
      total += x.length + 2;
    } else {
      total += String(x).length;
    }
  }
  return total;
}
