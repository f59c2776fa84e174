// kube's semver library (version 1): semver(string[, normalize]), isSemver(string[, normalize]),
// comparisons and major/minor/patch, with blang/semver/v4's parsing and error texts.
// Go counterparts: k8s.io/apiserver/pkg/cel/library/semverlib.go, github.com/blang/semver/v4.
import type { Environment } from '@marcbachmann/cel-js';
import { def, fail } from './util.ts';

export class KubeSemver {
  constructor(readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly pre: readonly (string | bigint)[], readonly build: readonly string[]) {}
}

const NUM = /^[0-9]*$/;
const ALNUM = /^[0-9A-Za-z-]*$/;
const leadingZero = (s: string): boolean => s.length > 1 && s.startsWith('0');
const MAX_U64 = 2n ** 64n - 1n;

function parseUint(s: string): bigint {
  if (s === '' || BigInt(s) > MAX_U64) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(s)}: ${s === '' ? 'invalid syntax' : 'value out of range'}`);
  return BigInt(s);
}

function number(s: string, what: string): bigint {
  if (!NUM.test(s)) throw new Error(`Invalid character(s) found in ${what} number ${JSON.stringify(s)}`);
  if (leadingZero(s)) throw new Error(`${what[0]!.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${JSON.stringify(s)}`);
  return parseUint(s);
}

/** blang/semver Parse; throws its error text. */
export function parseSemver(s: string): KubeSemver {
  if (s === '') throw new Error('Version string empty');
  const parts = s.split('.');
  if (parts.length < 3) throw new Error('No Major.Minor.Patch elements found');
  const major = number(parts[0]!, 'major');
  const minor = number(parts[1]!, 'minor');
  let patchStr = parts.slice(2).join('.');
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patchStr.indexOf('+');
  if (plus >= 0) { build = patchStr.slice(plus + 1).split('.'); patchStr = patchStr.slice(0, plus); }
  const dash = patchStr.indexOf('-');
  if (dash >= 0) { pre = patchStr.slice(dash + 1).split('.'); patchStr = patchStr.slice(0, dash); }
  const patch = number(patchStr, 'patch');
  const prs = pre.map((p) => {
    if (p === '') throw new Error('Prerelease is empty');
    if (NUM.test(p)) {
      if (leadingZero(p)) throw new Error(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(p)}`);
      return parseUint(p);
    }
    if (!ALNUM.test(p)) throw new Error(`Invalid character(s) found in prerelease ${JSON.stringify(p)}`);
    return p;
  });
  for (const b of build) {
    if (b === '') throw new Error('Build meta data is empty');
    if (!ALNUM.test(b)) throw new Error(`Invalid character(s) found in build meta data ${JSON.stringify(b)}`);
  }
  return new KubeSemver(major, minor, patch, prs, build);
}

/** kube's normalization: an optional `v`, leading zeros dropped, missing minor/patch as 0. */
function normalizeAndParse(s: string): KubeSemver {
  const parts = (s.startsWith('v') ? s.slice(1) : s).split('.');
  const head = parts.length > 3 ? [...parts.slice(0, 2), parts.slice(2).join('.')] : parts;
  const fixed = head.map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t === '' || !/^[0-9]/.test(t) ? `0${t}` : t;
  });
  if (fixed.length < 3) {
    if (/[+-]/.test(fixed[fixed.length - 1] ?? '')) throw new Error('short version cannot contain PreRelease/Build meta data');
    while (fixed.length < 3) fixed.push('0');
  }
  return parseSemver(fixed.join('.'));
}

function cmp(a: KubeSemver, b: KubeSemver): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] > b[k] ? 1 : -1;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < a.pre.length && i < b.pre.length; i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    if (typeof x === 'bigint' && typeof y === 'bigint') return x > y ? 1 : -1;
    if (typeof x === 'bigint') return -1;
    if (typeof y === 'bigint') return 1;
    return x > y ? 1 : -1;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length > b.pre.length ? 1 : -1;
}

function toSemver(s: string, normalize: boolean): KubeSemver {
  try {
    return normalize ? normalizeAndParse(s) : parseSemver(s);
  } catch (err) {
    return fail((err as Error).message);
  }
}

const valid = (s: string, normalize: boolean): boolean => {
  try { toSemver(s, normalize); return true; } catch { return false; }
};

export function registerSemver(env: Environment): void {
  const T = 'kubernetes.Semver';
  env.registerType(T, KubeSemver);
  def(env, `semver(string): ${T}`, (s: string) => toSemver(s, false));
  def(env, `semver(string, bool): ${T}`, (s: string, n: boolean) => toSemver(s, n));
  def(env, 'isSemver(string): bool', (s: string) => valid(s, false));
  def(env, 'isSemver(string, bool): bool', (s: string, n: boolean) => valid(s, n));
  def(env, `${T}.isGreaterThan(${T}): bool`, (a: KubeSemver, b: KubeSemver) => cmp(a, b) === 1);
  def(env, `${T}.isLessThan(${T}): bool`, (a: KubeSemver, b: KubeSemver) => cmp(a, b) === -1);
  def(env, `${T}.compareTo(${T}): int`, (a: KubeSemver, b: KubeSemver) => BigInt(cmp(a, b)));
  def(env, `${T}.major(): int`, (a: KubeSemver) => a.major);
  def(env, `${T}.minor(): int`, (a: KubeSemver) => a.minor);
  def(env, `${T}.patch(): int`, (a: KubeSemver) => a.patch);
  env.registerOperator(`${T} == ${T}`, (a: KubeSemver, b: KubeSemver) => cmp(a, b) === 0);
}
