// cel-go's strings extension at the version kube v1.36 enables (2): charAt, indexOf, lastIndexOf,
// lowerAscii, upperAscii, replace, split, substring, trim, join, format, strings.quote. Indexes count
// Unicode code points, case mapping touches ASCII only, and errors read as cel-go's.
// Go counterpart: github.com/google/cel-go/ext/strings.go (StringsVersion(2)).
import type { Environment } from '@marcbachmann/cel-js';
import { addOverride } from './overrides.ts';
import { durationString, formatString, quote, timestampString } from './format-string.ts';
import type { Duration } from '@marcbachmann/cel-js/evaluator';
import { codePoints, def, fail, namespace } from './util.ts';

function indexOf(s: string, sub: string, offset = 0n): bigint {
  if (sub === '') return offset;
  if (offset < 0n) fail(`index out of range: ${offset}`);
  const runes = codePoints(s);
  const subs = codePoints(sub);
  if (offset >= BigInt(runes.length)) return -1n;
  outer: for (let i = Number(offset); i < runes.length - (subs.length - 1); i++) {
    for (let j = 0; j < subs.length; j++) if (runes[i + j] !== subs[j]) continue outer;
    return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset?: bigint): bigint {
  const runes = codePoints(s);
  if (offset === undefined) {
    if (sub === '') return BigInt(runes.length);
    if (s.length < sub.length) return -1n;
    offset = BigInt(runes.length - 1);
  }
  if (sub === '') return offset;
  if (offset < 0n) fail(`index out of range: ${offset}`);
  const subs = codePoints(sub);
  if (offset >= BigInt(runes.length)) return -1n;
  let off = Number(offset);
  if (off > runes.length - subs.length) off = runes.length - subs.length;
  outer: for (let i = off; i >= 0; i--) {
    for (let j = 0; j < subs.length; j++) if (runes[i + j] !== subs[j]) continue outer;
    return BigInt(i);
  }
  return -1n;
}

const mapASCII = (s: string, f: (c: string) => string): string => s.replace(/[A-Za-z]+/g, f);

function substring(s: string, start: bigint, end?: bigint): string {
  const runes = codePoints(s);
  const l = BigInt(runes.length);
  if (end === undefined) {
    if (start < 0n || start > l) fail(`index out of range: ${start}`);
    return runes.slice(Number(start)).join('');
  }
  if (start > end) fail(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > l) fail(`index out of range: ${start}`);
  if (end < 0n || end > l) fail(`index out of range: ${end}`);
  return runes.slice(Number(start), Number(end)).join('');
}

/** Go's strings.Replace: at most n replacements (n < 0: all), an empty `old` matches between runes. */
function replace(s: string, old: string, repl: string, n = -1n): string {
  if (n === 0n || old === repl) return s;
  if (old === '') {
    const runes = codePoints(s);
    const out: string[] = [];
    let done = 0n;
    for (let i = 0; i <= runes.length; i++) {
      if (n < 0n || done < n) { out.push(repl); done++; }
      if (i < runes.length) out.push(runes[i]!);
    }
    return out.join('');
  }
  if (n < 0n) return s.split(old).join(repl);
  let out = '';
  let rest = s;
  for (let i = 0n; i < n; i++) {
    const at = rest.indexOf(old);
    if (at < 0) break;
    out += rest.slice(0, at) + repl;
    rest = rest.slice(at + old.length);
  }
  return out + rest;
}

/** Go's strings.SplitN: n == 0 no substrings, n < 0 all, an empty separator splits into runes. */
function split(s: string, sep: string, n = -1n): string[] {
  if (n === 0n) return [];
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (n < 0n || BigInt(parts.length) <= n) return parts;
  const k = Number(n);
  if (sep === '') return [...parts.slice(0, k - 1), parts.slice(k - 1).join('')];
  return [...parts.slice(0, k - 1), parts.slice(k - 1).join(sep)];
}

/** Go's strings.TrimSpace (Unicode White_Space). */
const trim = (s: string): string => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');

const ov = (name: string, arity: number, fn: (...args: never[]) => unknown): void => addOverride({ name, receiver: 'string', arity, fn });

export function registerStrings(env: Environment): void {
  def(env, 'string.charAt(int): string', (s: string, i: bigint) => {
    const runes = codePoints(s);
    if (i < 0n || i > BigInt(runes.length)) fail(`index out of range: ${i}`);
    return runes[Number(i)] ?? '';
  });
  def(env, 'string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b));
  def(env, 'string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => replace(s, a, b, n));
  def(env, 'string.format(list<dyn>): string', (s: string, args: unknown[]) => formatString(s, args));
  // the standard library's string() of durations and timestamps, which the library lacks
  def(env, 'string(google.protobuf.Duration): string', (d: Duration) => durationString(d));
  def(env, 'string(google.protobuf.Timestamp): string', (t: Date) => timestampString(t));
  namespace(env, 'strings', 'kubernetes.StringsNamespace');
  def(env, 'kubernetes.StringsNamespace.quote(string): string', (_ns: unknown, s: string) => quote(s));
  // The library has these with other semantics (UTF-16 indexes, Unicode case mapping, other texts).
  ov('indexOf', 1, (s: string, sub: string) => indexOf(s, sub));
  ov('indexOf', 2, (s: string, sub: string, off: bigint) => indexOf(s, sub, off));
  ov('lastIndexOf', 1, (s: string, sub: string) => lastIndexOf(s, sub));
  ov('lastIndexOf', 2, (s: string, sub: string, off: bigint) => lastIndexOf(s, sub, off));
  ov('lowerAscii', 0, (s: string) => mapASCII(s, (c) => c.toLowerCase()));
  ov('upperAscii', 0, (s: string) => mapASCII(s, (c) => c.toUpperCase()));
  ov('substring', 1, (s: string, a: bigint) => substring(s, a));
  ov('substring', 2, (s: string, a: bigint, b: bigint) => substring(s, a, b));
  ov('split', 1, (s: string, sep: string) => split(s, sep));
  ov('split', 2, (s: string, sep: string, n: bigint) => split(s, sep, n));
  ov('trim', 0, (s: string) => trim(s));
}
