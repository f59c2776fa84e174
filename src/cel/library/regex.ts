// Regular expressions as kube evaluates them: RE2 syntax and semantics (Go's regexp) for `matches`,
// and kube's regex library (`find`, `findAll`). Patterns are validated by an RE2 engine
// (@bufbuild/re2, whose errors are Go's texts); matching uses it too. `find`/`findAll` need match
// positions, which that engine does not give, so they run the validated pattern translated to a
// JavaScript RegExp (leftmost-first, like RE2, for the patterns RE2 accepts).
// Go counterparts: k8s.io/apiserver/pkg/cel/library/regex.go, cel-go's `matches` and
// ValidateRegexLiterals.
import type { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from '@bufbuild/re2';
import type { AstNode } from '../ast.ts';
import { addOverride } from './overrides.ts';
import { def, fail } from './util.ts';

const re2Cache = new Map<string, RE2JS | Error>();
const jsCache = new Map<string, RegExp>();

/** The compiled RE2 pattern, or the Go error text. */
export function compileRE2(pattern: string): RE2JS | Error {
  let r = re2Cache.get(pattern);
  if (r === undefined) {
    try {
      r = RE2JS.compile(pattern);
    } catch (err) {
      r = new Error(err instanceof Error ? err.message : String(err));
    }
    if (re2Cache.size > 1000) re2Cache.clear();
    re2Cache.set(pattern, r);
  }
  return r;
}

const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-/:-@[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

/** RE2's whitespace (`\s`): JavaScript's also takes \v and Unicode spaces. */
const RE2_SPACE = '\\t\\n\\f\\r ';

/**
 * `\s`, `\S`, `.` and `[]…]` as RE2 reads them: whitespace is ASCII only, `.` (without the s flag)
 * excludes only \n (JavaScript's also excludes \r, U+2028 and U+2029), and a class may start with `]`.
 */
function perlClassesAsRE2(p: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      const n = p[i + 1] ?? '';
      i++;
      if (n === 's') out += inClass ? RE2_SPACE : `[${RE2_SPACE}]`;
      else if (n === 'S' && !inClass) out += `[^${RE2_SPACE}]`;
      else out += c + n;
      continue;
    }
    if (inClass) {
      if (c === ']' && !/\[\^?$/.test(out)) inClass = false;
    } else if (c === '[') {
      inClass = true;
      // RE2 reads a `]` first in a class as itself; JavaScript as the end of an empty class.
      const neg = p[i + 1] === '^' ? '^' : '';
      if (p[i + 1 + neg.length] === ']') {
        out += `[${neg}\\]`;
        i += 1 + neg.length;
        continue;
      }
    } else if (c === '.' && !dotAll) {
      out += '[^\\n]';
      continue;
    }
    out += c;
  }
  return out;
}

/** An RE2 pattern (already validated) as a JavaScript RegExp with the same matches. */
function toJS(pattern: string): RegExp {
  let r = jsCache.get(pattern);
  if (r !== undefined) return r;
  let flags = 'g';
  let p = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(p);
  if (lead !== null) {
    for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
    p = p.slice(lead[0].length);
  }
  p = p
    .replace(/\\Q(.*?)(?:\\E|$)/g, (_m, lit: string) => lit.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '(?![\\s\\S])')
    .replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => (neg === '' && POSIX[name] !== undefined ? POSIX[name] : m));
  p = perlClassesAsRE2(p, flags.includes('s'));
  if (/\\[pP]/.test(p)) {
    flags += 'u';
    p = p.replace(/\\([pP])([A-Z])/g, '\\$1{$2}');
  }
  if (flags.includes('s')) flags = flags.replace('s', '') + 's';
  r = new RegExp(p, flags);
  if (jsCache.size > 1000) jsCache.clear();
  jsCache.set(pattern, r);
  return r;
}

function mustCompile(pattern: string, illegalPrefix: string): RE2JS {
  const r = compileRE2(pattern);
  if (r instanceof Error) fail(`${illegalPrefix}${r.message}`);
  return r;
}

export function matches(s: string, pattern: string): boolean {
  return mustCompile(pattern, '').test(s);
}

export function find(s: string, pattern: string): string {
  mustCompile(pattern, 'Illegal regex: ');
  const re = toJS(pattern);
  re.lastIndex = 0;
  return re.exec(s)?.[0] ?? '';
}

export function findAll(s: string, pattern: string, n = -1n): string[] {
  mustCompile(pattern, 'Illegal regex: ');
  if (n === 0n) return [];
  const out: string[] = [];
  let prevEnd = -1;
  const re = toJS(pattern);
  re.lastIndex = 0;
  for (const m of s.matchAll(re)) {
    // Go skips an empty match that abuts the previous match.
    if (m[0] === '' && m.index === prevEnd) continue;
    out.push(m[0]);
    prevEnd = m.index + m[0].length;
    if (n > 0n && BigInt(out.length) >= n) break;
  }
  return out;
}

/** cel-go's check of a literal pattern argument of matches (`invalid matches argument`). */
function literalPattern(fnName: string, index: number) {
  return (args: readonly AstNode[]): { node: AstNode; message: string } | undefined => {
    const a = args[index];
    if (a === undefined || a.op !== 'value' || typeof a.args !== 'string') return undefined;
    return compileRE2(a.args) instanceof Error ? { node: a, message: `invalid ${fnName} argument` } : undefined;
  };
}

export function registerRegex(env: Environment): void {
  def(env, 'string.find(string): string', (s: string, p: string) => find(s, p));
  def(env, 'string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p));
  def(env, 'string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, n));
  def(env, 'matches(string, string): bool', (s: string, p: string) => matches(s, p));
  addOverride({ name: 'matches', receiver: 'string', arity: 1, fn: (s: string, p: string) => matches(s, p), validate: literalPattern('matches', 0) });
  addOverride({ name: 'matches', arity: 2, fn: (s: string, p: string) => matches(s, p), validate: literalPattern('matches', 1) });
  // kube's find/findAll have no checker validation: a bad literal pattern fails when the program is
  // planned (planIssue: `program instantiation failed: …`).
  addOverride({ name: 'find', receiver: 'string', arity: 1, fn: (s: string, p: string) => find(s, p) });
  addOverride({ name: 'findAll', receiver: 'string', arity: 1, fn: (s: string, p: string) => findAll(s, p) });
  addOverride({ name: 'findAll', receiver: 'string', arity: 2, fn: (s: string, p: string, n: bigint) => findAll(s, p, n) });
}
