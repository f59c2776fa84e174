// Admission metrics of kube-apiserver v1.36: the chain's steps (admit, validate) and each
// plugin's calls, timed and labelled with the operation and whether it rejected the request; and
// the webhooks' calls.
// Counterpart of k8s.io/apiserver/pkg/admission/metrics/metrics.go.
import { newCounter, newHistogram } from '../apimachinery/metrics/registry.ts';

const BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];

const step = newHistogram({
  name: 'apiserver_admission_step_admission_duration_seconds', stability: 'STABLE',
  help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
  labelNames: ['type', 'operation', 'rejected'], buckets: BUCKETS,
});
const controller = newHistogram({
  name: 'apiserver_admission_controller_admission_duration_seconds', stability: 'STABLE',
  help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'], buckets: BUCKETS,
});
const webhook = newHistogram({
  name: 'apiserver_admission_webhook_admission_duration_seconds', stability: 'STABLE',
  help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'], buckets: WEBHOOK_BUCKETS,
});
const webhookRequests = newCounter({
  name: 'apiserver_admission_webhook_request_total', stability: 'ALPHA',
  help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
});
const webhookRejections = newCounter({
  name: 'apiserver_admission_webhook_rejection_count', stability: 'ALPHA',
  help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
});
const webhookFailOpen = newCounter({
  name: 'apiserver_admission_webhook_fail_open_count', stability: 'ALPHA',
  help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
  labelNames: ['name', 'type'],
});

export type StepType = 'admit' | 'validate';
const since = (startNs: bigint): number => Number(process.hrtime.bigint() - startNs) / 1e9;

export function observeAdmissionStep(type: StepType, operation: string, rejected: boolean, startNs: bigint): void {
  step.observe({ operation, rejected: String(rejected), type }, since(startNs));
}

export function observeAdmissionController(name: string, type: StepType, operation: string, rejected: boolean, startNs: bigint): void {
  controller.observe({ name, operation, rejected: String(rejected), type }, since(startNs));
}

/** One call of an admission webhook: `code` is the HTTP status (0 when the call failed), capped at 600. */
export function observeWebhook(name: string, type: StepType, operation: string, rejected: boolean, code: number, startNs: bigint): void {
  webhook.observe({ name, operation, rejected: String(rejected), type }, since(startNs));
  webhookRequests.inc({ code: String(Math.min(code, 600)), name, operation, rejected: String(rejected), type });
}

export type WebhookErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

export function observeWebhookRejection(name: string, type: StepType, operation: string, errorType: WebhookErrorType, rejectionCode: number): void {
  webhookRejections.inc({ error_type: errorType, name, operation, rejection_code: String(Math.min(rejectionCode, 600)), type });
}

export function observeWebhookFailOpen(name: string, type: StepType): void {
  webhookFailOpen.inc({ name, type });
}
