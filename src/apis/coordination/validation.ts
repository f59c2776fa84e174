// coordination validation (pkg/apis/coordination/validation): lease durations and strategies,
// and the semantic versions of lease candidates.
import { invalid, notSupported, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { isQualifiedName } from '../../apimachinery/validation/validation.ts';

/** The only strategy kube defines; others must be domain-qualified names. */
export const OLDEST_EMULATION_VERSION = 'OldestEmulationVersion';

/**
 * ValidateCoordinatedLeaseStrategy. Kube appends "strategy" to a path that already ends in it,
 * so the errors read `spec.strategy.strategy`: kept for compatibility.
 */
export function validateCoordinatedLeaseStrategy(strategy: string, path: FieldPath): FieldError[] {
  const p = path.child('strategy');
  if (!strategy.includes('/')) {
    return strategy === OLDEST_EMULATION_VERSION ? [] : [notSupported(p, strategy, [OLDEST_EMULATION_VERSION])];
  }
  return isQualifiedName(strategy).map((m) => invalid(p, strategy, m));
}

export interface SemVer { readonly major: number; readonly minor: number; readonly patch: number; readonly pre: readonly string[] }

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** blang/semver's strict Parse: MAJOR.MINOR.PATCH[-pre][+build]. */
export function parseSemVer(s: string): SemVer | undefined {
  const m = SEMVER.exec(s);
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] === undefined ? [] : m[4].split('.') };
}

/** Semantic version precedence: -1, 0 or 1. */
export function compareSemVer(a: SemVer, b: SemVer): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i] ?? '';
    const y = b.pre[i] ?? '';
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return Number(x) < Number(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

export const ZERO_SEMVER: SemVer = { major: 0, minor: 0, patch: 0, pre: [] };
