// The admission policy metrics of kube-apiserver v1.36: per policy and binding, the checks that
// mattered (a validation that denied, warned or audited, or whose evaluation failed; a mutation
// applied or failed) with their error type and, for validation, the action taken, and how long
// they took. A validation that simply passes is not counted, as in kube.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/{validating,mutating}/metrics.
import { newCounter, newHistogram } from '../../apimachinery/metrics/registry.ts';

export type PolicyErrorType = 'no_error' | 'compile_error' | 'invalid_error' | 'out_of_budget';

/** Buckets from half a microsecond (a trivial expression) to a second (one near the cost limit). */
const BUCKETS = [0.0000005, 0.001, 0.01, 0.1, 1.0];
const VALIDATING_LABELS = ['policy', 'policy_binding', 'error_type', 'enforcement_action'] as const;
const MUTATING_LABELS = ['policy', 'policy_binding', 'error_type'] as const;

const validatingCheck = newCounter<typeof VALIDATING_LABELS[number]>({ name: 'apiserver_validating_admission_policy_check_total', stability: 'BETA',
  labelNames: VALIDATING_LABELS,
  help: 'Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken.' });
const validatingLatency = newHistogram<typeof VALIDATING_LABELS[number]>({ name: 'apiserver_validating_admission_policy_check_duration_seconds',
  stability: 'BETA', labelNames: VALIDATING_LABELS, buckets: BUCKETS,
  help: 'Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken.' });
const mutatingCheck = newCounter<typeof MUTATING_LABELS[number]>({ name: 'apiserver_mutating_admission_policy_check_total', stability: 'ALPHA',
  labelNames: MUTATING_LABELS, help: 'Mutation admission policy check total, labeled by policy and further identified by binding.' });
const mutatingLatency = newHistogram<typeof MUTATING_LABELS[number]>({ name: 'apiserver_mutating_admission_policy_check_duration_seconds',
  stability: 'ALPHA', labelNames: MUTATING_LABELS, buckets: BUCKETS,
  help: 'Mutation admission latency for individual mutation expressions in seconds, labeled by policy and binding.' });

/** The error type of a failed check, from its message as kube tells them apart; 'no_error' when it did not fail. */
export function policyErrorType(failed: boolean, message: string): PolicyErrorType {
  if (!failed) return 'no_error';
  if (message.startsWith('compilation')) return 'compile_error';
  if (message.startsWith('validation failed due to running out of cost budget')) return 'out_of_budget';
  return 'invalid_error';
}

export function observeValidatingPolicyCheck(policy: string, binding: string, errorType: PolicyErrorType,
  action: 'allow' | 'deny' | 'audit' | 'warn', seconds: number): void {
  const labels = { policy, policy_binding: binding, error_type: errorType, enforcement_action: action };
  validatingCheck.inc(labels);
  validatingLatency.observe(labels, seconds);
}

export function observeMutatingPolicyCheck(policy: string, binding: string, errorType: PolicyErrorType, seconds: number): void {
  const labels = { policy, policy_binding: binding, error_type: errorType };
  mutatingCheck.inc(labels);
  mutatingLatency.observe(labels, seconds);
}
