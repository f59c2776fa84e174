// What a check is: an ID, the level it belongs to, and its revisions by policy version; plus the
// helpers every check shares to word its findings.
// Counterpart of k8s.io/pod-security-admission/policy (checks.go, helpers.go, visitor.go).
import type { Container, EphemeralContainer, PodSpec } from '../../../../generated/types/corev1.gen.ts';
import type { NumberedVersion } from '../api.ts';

/** A finding: allowed, or the short reason (always shown) and the detail (shown for one object). */
export type CheckResult = { readonly allowed: true } | { readonly allowed: false; readonly reason: string; readonly detail: string };

export const ALLOWED: CheckResult = { allowed: true };
export const forbid = (reason: string, detail: string): CheckResult => ({ allowed: false, reason, detail });

/** The pod metadata checks read (annotations select AppArmor and seccomp in old versions). */
export interface PodMeta {
  readonly name?: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

export type CheckPodFn = (meta: PodMeta, spec: Readonly<PodSpec>) => CheckResult;

export interface VersionedCheck {
  /** The first policy version the revision applies to. */
  readonly minimumVersion: NumberedVersion;
  readonly checkPod: CheckPodFn;
  /** Baseline checks this restricted revision replaces. */
  readonly overrides?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  /** Strictly increasing minimum versions. */
  readonly versions: readonly VersionedCheck[];
}

export type AnyContainer = Readonly<Container> | Readonly<EphemeralContainer>;

/** Init containers, then containers, then ephemeral containers, as kube visits them. */
export function visitContainers(spec: Readonly<PodSpec>, visit: (c: AnyContainer) => void): void {
  for (const c of spec.initContainers ?? []) visit(c);
  for (const c of spec.containers ?? []) visit(c);
  for (const c of spec.ephemeralContainers ?? []) visit(c);
}

export const joinQuote = (items: readonly string[]): string => items.length === 0 ? '' : `"${items.join('", "')}"`;
export const pluralize = (singular: string, plural: string, count: number): string => count === 1 ? singular : plural;
/** `container "a"` or `containers "a", "b"`. */
export const containers = (names: readonly string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** A sorted set's list (Go's sets.String.List()): unique, in byte order. */
export const sortedSet = (items: Iterable<string>): string[] => [...new Set(items)].sort();

/** hostUsers: false puts the pod in a user namespace, which relaxes some checks from v1.35. */
export const inUserNamespace = (spec: Readonly<PodSpec>): boolean => spec.hostUsers === false;

/** Windows pods may not set Linux-only fields, so checks of those fields pass them from v1.25. */
export const isWindows = (spec: Readonly<PodSpec>): boolean => spec.os?.name === 'windows';
