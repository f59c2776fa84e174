// The PodSecurity policy model: levels, versions, the namespace labels that select them, and
// how a namespace's labels resolve to the policy evaluated for its pods.
// Counterpart of k8s.io/pod-security-admission/api (constants.go, helpers.go).
import { invalid, fieldPath, type FieldError } from '../../../apimachinery/errors/field-errors.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';
export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

/** Audit annotation keys, written to the request with the label prefix in front. */
export const AUDIT_ANNOTATION_PREFIX = LABEL_PREFIX;
export const EXEMPTION_REASON_ANNOTATION = 'exempt';
export const AUDIT_VIOLATIONS_ANNOTATION = 'audit-violations';
export const ENFORCED_POLICY_ANNOTATION = 'enforce-policy';

/** A policy version: `latest`, or v1.minor. */
export type NumberedVersion = { readonly latest: false; readonly minor: number };
export type Version = { readonly latest: true } | NumberedVersion;
export const LATEST: Version = { latest: true };
export const v1 = (minor: number): NumberedVersion => ({ latest: false, minor });

export const versionString = (v: Version): string => v.latest ? 'latest' : `v1.${v.minor}`;

/** Whether a is older than b; latest is newer than every numbered version. */
export function older(a: Version, b: Version): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

export const sameVersion = (a: Version, b: Version): boolean => versionString(a) === versionString(b);

export interface LevelVersion { readonly level: Level; readonly version: Version }
export const lvString = (lv: LevelVersion): string => `${lv.level}:${versionString(lv.version)}`;
export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean => lvString(a) === lvString(b);

/** Both privileged (whatever the version), or the same level and version. */
export const equivalentLevelVersion = (a: LevelVersion, b: LevelVersion): boolean =>
  (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);

export interface Policy { readonly enforce: LevelVersion; readonly audit: LevelVersion; readonly warn: LevelVersion }

export const equivalentPolicy = (a: Policy, b: Policy): boolean =>
  equivalentLevelVersion(a.enforce, b.enforce) && equivalentLevelVersion(a.audit, b.audit) && equivalentLevelVersion(a.warn, b.warn);

export const fullyPrivileged = (p: Policy): boolean =>
  p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';

const PRIVILEGED_LATEST: LevelVersion = { level: 'privileged', version: LATEST };
/** The policy of a namespace without labels when no configuration says otherwise. */
export const PRIVILEGED_POLICY: Policy = { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST };

export const LEVEL_ERROR = `must be one of ${LEVELS.join(', ')}`;
export const VERSION_ERROR = 'must be "latest" or "v1.x"';

/** An unknown level reads as restricted (fail closed), with an error. */
export function parseLevel(s: string): { level: Level; error?: string } {
  return (LEVELS as readonly string[]).includes(s) ? { level: s as Level } : { level: 'restricted', error: LEVEL_ERROR };
}

const VERSION_RE = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** An unknown version reads as latest, with an error; a minor beyond Go's int is an error too. */
export function parseVersion(s: string): { version: Version; error?: string } {
  if (s === 'latest') return { version: LATEST };
  const m = VERSION_RE.exec(s);
  const minor = m === null ? NaN : Number(m[1]);
  if (!Number.isSafeInteger(minor)) return { version: LATEST, error: VERSION_ERROR };
  return { version: v1(minor) };
}

/** 1 when a is stricter than b, -1 when less strict, 0 when the same. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

const labelsPath = fieldPath('metadata', 'labels');

/**
 * The policy a namespace's labels select, starting from `defaults`. Always a usable policy: a bad
 * enforce level reads as restricted, a bad audit or warn level as privileged (those fail open), a
 * bad version as latest; each bad label also yields a field error. An enforce level stricter than
 * warn raises warn to it, unless warn is labelled.
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (labels === undefined || Object.keys(labels).length === 0) return { policy: defaults, errors };
  let { enforce, audit, warn } = defaults;
  const has = (k: string): boolean => Object.hasOwn(labels, k);
  const note = (label: string, error: string | undefined): void => {
    if (error !== undefined) errors.push(invalid(labelsPath.key(label), labels[label] ?? '', error));
  };
  let hasEnforceLevel = false;
  if (has(ENFORCE_LEVEL_LABEL)) {
    const r = parseLevel(labels[ENFORCE_LEVEL_LABEL] ?? '');
    enforce = { ...enforce, level: r.level };
    hasEnforceLevel = r.error === undefined;
    note(ENFORCE_LEVEL_LABEL, r.error);
  }
  if (has(ENFORCE_VERSION_LABEL)) {
    const r = parseVersion(labels[ENFORCE_VERSION_LABEL] ?? '');
    enforce = { ...enforce, version: r.version };
    note(ENFORCE_VERSION_LABEL, r.error);
  }
  if (has(AUDIT_LEVEL_LABEL)) {
    const r = parseLevel(labels[AUDIT_LEVEL_LABEL] ?? '');
    audit = { ...audit, level: r.error === undefined ? r.level : 'privileged' };
    note(AUDIT_LEVEL_LABEL, r.error);
  }
  if (has(AUDIT_VERSION_LABEL)) {
    const r = parseVersion(labels[AUDIT_VERSION_LABEL] ?? '');
    audit = { ...audit, version: r.version };
    note(AUDIT_VERSION_LABEL, r.error);
  }
  const hasWarnLevel = has(WARN_LEVEL_LABEL);
  if (hasWarnLevel) {
    const r = parseLevel(labels[WARN_LEVEL_LABEL] ?? '');
    warn = { ...warn, level: r.error === undefined ? r.level : 'privileged' };
    note(WARN_LEVEL_LABEL, r.error);
  }
  const hasWarnVersion = has(WARN_VERSION_LABEL);
  if (hasWarnVersion) {
    const r = parseVersion(labels[WARN_VERSION_LABEL] ?? '');
    warn = { ...warn, version: r.version };
    note(WARN_VERSION_LABEL, r.error);
  }
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(enforce.level, warn.level) > 0) {
    warn = { level: enforce.level, version: hasWarnVersion ? warn.version : enforce.version };
  }
  return { policy: { enforce, audit, warn }, errors };
}
