// The errors of calling webhooks, with kube's texts: a webhook's denial (its status passed
// through, the message prefixed with who denied), a failure to call it (failurePolicy decides),
// and the dry-run refusal.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go and
// k8s.io/apiserver/pkg/util/webhook/error.go.
import { newBadRequest, StatusError, type StatusReason } from '../../apimachinery/errors/status-error.ts';
import { goQuote } from '../../apimachinery/goformat/index.ts';
import type { Status } from '../../apimachinery/meta/types.ts';

/**
 * ErrCallingWebhook: the webhook could not be asked or answered nonsense. Its message is kube's
 * (`failed calling webhook "x": <reason>`); failurePolicy Ignore skips it, Fail answers 500 with it.
 */
export class CallingWebhookError extends Error {
  override readonly name = 'CallingWebhookError';
  constructor(readonly webhookName: string, readonly reason: string) {
    super(reason === '' ? `failed calling webhook ${goQuote(webhookName)}; no further details available`
      : `failed calling webhook ${goQuote(webhookName)}: ${reason}`);
  }
}

/** The status of a webhook's result as it may arrive (any field may be missing or odd). */
export type ResultStatus = Partial<Pick<Status, 'message' | 'reason' | 'details'>> & { code?: number; status?: string; metadata?: unknown };

/**
 * ToStatusErr: a webhook's denial. Its status passes through, with a code of at least 400, status
 * Failure, and the message prefixed with `admission webhook "x" denied the request`.
 */
export function toStatusError(webhookName: string, result: ResultStatus | undefined): StatusError {
  const deniedBy = `admission webhook ${goQuote(webhookName)} denied the request`;
  const r = result ?? {};
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = typeof r.message === 'string' && r.message !== '' ? `${deniedBy}: ${r.message}`
    : typeof r.reason === 'string' && r.reason !== '' ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  const status: StatusError['status'] = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message,
    reason: (typeof r.reason === 'string' ? r.reason : '') as StatusReason, code,
  };
  if (r.details !== undefined && r.details !== null && typeof r.details === 'object') status.details = r.details;
  return new StatusError(status);
}

/** NewDryRunUnsupportedErr: a dry run must not reach a webhook that may have side effects. */
export function dryRunUnsupported(webhookName: string): StatusError {
  return newBadRequest(`admission webhook ${goQuote(webhookName)} does not support dry run`);
}
