// The warning for labelling an exempt namespace with a policy that will never apply.
// Counterpart of exemptNamespaceWarning in k8s.io/pod-security-admission/admission/admission.go.
import {
  AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, WARN_LEVEL_LABEL, WARN_VERSION_LABEL,
  equivalentPolicy, fullyPrivileged, lvString, type LevelVersion, type Policy,
} from './api.ts';

/** '' when the policy is privileged or the default; else names each labelled, non-privileged mode. */
export function exemptNamespaceWarning(namespace: string, policy: Policy, labels: Readonly<Record<string, string>>, defaults: Policy): string {
  if (fullyPrivileged(policy) || equivalentPolicy(policy, defaults)) return '';
  const has = (k: string): boolean => Object.hasOwn(labels, k);
  const modes: [string, LevelVersion, string, string][] = [
    ['enforce', policy.enforce, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL],
    ['audit', policy.audit, AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL],
    ['warn', policy.warn, WARN_LEVEL_LABEL, WARN_VERSION_LABEL],
  ];
  const shown = modes.filter(([, lv, level, version]) => lv.level !== 'privileged' && (has(level) || has(version)))
    .map(([mode, lv]) => `${mode}=${lvString(lv)}`);
  return `namespace "${namespace}" is exempt from Pod Security, and the policy (${shown.join(', ')}) will be ignored`;
}
