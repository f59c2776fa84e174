// Helpers shared by kube's CEL libraries: registering functions on the library environment, raising
// runtime errors with cel-go's texts, ordering CEL values, and namespaces (`sets.contains`, `lists.range`).
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';

/** A library function: receives CEL values, returns a CEL value or throws a CelRuntimeError. */
export type Handler = (...args: never[]) => unknown;

/** A runtime error whose message is already the text kube reports (cel-go's). */
export class CelRuntimeError extends Error {
  override readonly name = 'CelRuntimeError';
}

/** Throws kube's runtime error `message`. */
export function fail(message: string): never {
  throw new CelRuntimeError(message);
}

/** Registers an overload, e.g. `def(env, 'list<A>.indexOf(A): int', (l, x) => …)`. */
export function def(env: Environment, signature: string, handler: Handler): void {
  env.registerFunction(signature, handler as (...args: unknown[]) => unknown);
}

/** Declares a namespace constant (`sets`, `lists`, `strings`…) so `sets.contains(…)` resolves. */
export function namespace(env: Environment, name: string, typeName: string): void {
  const ctor = class {};
  Object.defineProperty(ctor, 'name', { value: typeName });
  env.registerType(typeName, ctor);
  env.registerConstant(name, typeName, new ctor());
}

const rank = (v: unknown): number => {
  if (typeof v === 'bigint' || typeof v === 'number' || v instanceof UnsignedInt) return 0;
  return 1;
};

/** cel-go's Compare of two comparable values: -1, 0 or 1. Throws `no such overload` for others. */
export function compare(a: unknown, b: unknown): number {
  if (rank(a) === 0 && rank(b) === 0) {
    const x = a instanceof UnsignedInt ? a.valueOf() : (a as bigint | number);
    const y = b instanceof UnsignedInt ? b.valueOf() : (b as bigint | number);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (a instanceof Duration && b instanceof Duration) {
    return a.seconds !== b.seconds ? (a.seconds < b.seconds ? -1 : 1) : Math.sign(a.nanos - b.nanos);
  }
  return fail('no such overload');
}

/** The element types kube's and cel-go's list functions are declared for (their comparableTypes). */
export const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'] as const;

const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);

/** An int result, or cel-go's `integer overflow`. */
export function checkedInt(v: bigint): bigint {
  if (v > MAX_INT || v < MIN_INT) fail('integer overflow');
  return v;
}

/** The elements of a CEL list value (array or Set). */
export const elements = (l: unknown): unknown[] => (Array.isArray(l) ? l : [...(l as Iterable<unknown>)]);

/** The number of Unicode code points of a string (CEL's string size and indexes count code points). */
export const codePoints = (s: string): string[] => [...s];

/** A CEL duration literal (`1h30m`, `-1.5s`, `0`) as nanoseconds, or undefined when invalid. */
export function parseDurationLiteral(s: string): bigint | undefined {
  if (s === '0') return 0n;
  const m = /^([-+]?)((?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(s);
  if (m === null) return undefined;
  const units: Readonly<Record<string, bigint>> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };
  let total = 0n;
  for (const part of (m[2] ?? '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    const [whole = '0', frac = ''] = (part[1] ?? '0').split('.');
    const unit = units[part[2] ?? 's'] ?? 1n;
    total += BigInt(whole === '' ? '0' : whole) * unit;
    if (frac !== '') total += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
  }
  return m[1] === '-' ? -total : total;
}
