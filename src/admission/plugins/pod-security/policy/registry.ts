// The evaluator: for each level and policy version, the list of check revisions that apply,
// built once from the checks (baseline ones first, then restricted, each group by ID), with the
// baseline checks a restricted revision overrides left out. Versions past the newest check
// revision, latest included, evaluate as that newest version.
// Counterpart of k8s.io/pod-security-admission/policy/registry.go (and checks.go's aggregation).
import type { PodSpec } from '../../../../generated/types/corev1.gen.ts';
import { older, v1, type LevelVersion, type NumberedVersion } from '../api.ts';
import { BASELINE_HOST_CHECKS } from './checks-baseline.ts';
import { BASELINE_PROFILE_CHECKS } from './checks-baseline-profiles.ts';
import { RESTRICTED_CHECKS } from './checks-restricted.ts';
import type { Check, CheckPodFn, CheckResult, PodMeta } from './check.ts';

/** Every check of kube v1.36's default set. */
export const DEFAULT_CHECKS: readonly Check[] = [...BASELINE_HOST_CHECKS, ...BASELINE_PROFILE_CHECKS, ...RESTRICTED_CHECKS];

export interface AggregateResult {
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  readonly details: readonly string[];
}

/** The reasons joined: what a namespace-wide check reports per pod. */
export const forbiddenReason = (r: AggregateResult): string => r.reasons.join(', ');

/** Each reason with its detail in parentheses: what the check of one object reports. */
export const forbiddenDetail = (r: AggregateResult): string =>
  r.reasons.map((reason, i) => (r.details[i] ?? '') === '' ? reason : `${reason} (${r.details[i] ?? ''})`).join(', ');

export function aggregate(results: readonly CheckResult[]): AggregateResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(r.reason === '' ? 'unknown forbidden reason' : r.reason);
    details.push(r.detail);
  }
  return { allowed: reasons.length === 0, reasons, details };
}

export class Evaluator {
  private readonly baseline: CheckPodFn[][] = [];
  private readonly restricted: CheckPodFn[][] = [];
  /** The newest minor any check revision starts at. */
  readonly maxMinor: number;

  /** `emulationMinor` caps the newest version evaluated, as kube's emulated version does. */
  constructor(checks: readonly Check[] = DEFAULT_CHECKS, emulationMinor?: number) {
    let max = 0;
    for (const c of checks) max = Math.max(max, c.versions[c.versions.length - 1]?.minimumVersion.minor ?? 0);
    const order = [...checks.filter((c) => c.level === 'baseline').map((c) => c.id).sort(),
      ...checks.filter((c) => c.level === 'restricted').map((c) => c.id).sort()];
    const byId = new Map(checks.map((c) => [c.id, c]));
    for (let minor = 0; minor <= max; minor++) {
      const at = v1(minor);
      const revisions = new Map<string, { fn: CheckPodFn; overrides: readonly string[] }>();
      for (const id of order) {
        const rev = revisionAt(byId.get(id)?.versions ?? [], at);
        if (rev !== undefined) revisions.set(id, { fn: rev.checkPod, overrides: rev.overrides ?? [] });
      }
      const overridden = new Set([...revisions.entries()].filter(([id]) => byId.get(id)?.level === 'restricted').flatMap(([, r]) => r.overrides));
      const pick = (keep: (id: string) => boolean): CheckPodFn[] =>
        order.filter((id) => revisions.has(id) && keep(id)).map((id) => revisions.get(id)?.fn as CheckPodFn);
      this.baseline[minor] = pick((id) => byId.get(id)?.level === 'baseline');
      this.restricted[minor] = pick((id) => !overridden.has(id));
    }
    this.maxMinor = emulationMinor !== undefined && emulationMinor < max ? emulationMinor : max;
  }

  /** The results of every check of the level at the version; none for privileged. */
  evaluatePod(lv: LevelVersion, meta: PodMeta, spec: Readonly<PodSpec>): CheckResult[] {
    if (lv.level === 'privileged') return [];
    const minor = lv.version.latest || lv.version.minor > this.maxMinor ? this.maxMinor : lv.version.minor;
    const checks = (lv.level === 'baseline' ? this.baseline : this.restricted)[minor] ?? [];
    return checks.map((check) => check(meta, spec));
  }
}

function revisionAt(versions: Check['versions'], at: NumberedVersion): Check['versions'][number] | undefined {
  let found: Check['versions'][number] | undefined;
  for (const v of versions) if (!older(at, v.minimumVersion)) found = v;
  return found;
}
