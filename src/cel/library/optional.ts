// The parts of cel-go's optional library the library lacks: optional.ofNonZeroValue and
// optional.unwrap / unwrapOpt. (of, none, value, hasValue, or, orValue and `.?`/`[?]` are the
// library's; optMap/optFlatMap are macros in comprehensions.ts.)
// Go counterpart: github.com/google/cel-go/cel/library.go (optionalLib).
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { CelObject } from '../values.ts';
import { def, elements } from './util.ts';

/** CEL's zero value test: 0, 0u, 0.0, '', b'', false, null, empty list/map, zero duration/timestamp. */
function isZero(v: unknown): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (v instanceof UnsignedInt) return v.valueOf() === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (Array.isArray(v) || v instanceof Set) return elements(v).length === 0;
  if (v instanceof Map) return v.size === 0;
  if (v instanceof Duration) return v.seconds === 0n && v.nanos === 0;
  if (v instanceof Date) return v.getTime() === Date.UTC(1970, 0, 1);
  if (v instanceof CelObject) return Object.keys(v).length === 0;
  return false;
}

export function registerOptional(env: Environment): void {
  def(env, 'OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, v: unknown) => (isZero(v) ? Optional.none() : Optional.of(v)));
  const unwrap = (l: unknown): unknown[] => elements(l).filter((o) => o instanceof Optional && o.hasValue()).map((o) => (o as Optional).value());
  def(env, 'OptionalNamespace.unwrap(list<optional<A>>): list<A>', (_ns: unknown, l: unknown) => unwrap(l));
  def(env, 'list<optional<A>>.unwrapOpt(): list<A>', (l: unknown) => unwrap(l));
}
