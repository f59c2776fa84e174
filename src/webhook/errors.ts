// The errors of a webhook call, worded as kube's webhook utilities word them.
// Counterpart of k8s.io/apiserver/pkg/util/webhook/error.go.
import type { StatusError } from '../apimachinery/errors/status-error.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';

/**
 * A webhook could not be called or answered unusably (ErrCallingWebhook). The message is
 * `failed calling webhook "name": <reason>`; callers add their own prefix to the reason
 * (the admission dispatcher's `failed to call webhook: `).
 */
export class ErrCallingWebhook extends Error {
  override readonly name = 'ErrCallingWebhook';
  readonly webhookName: string;
  readonly reason: Error | undefined;
  /** The Status the webhook answered with, when it answered with one. */
  readonly status: StatusError | undefined;
  constructor(webhookName: string, reason: Error | undefined, status?: StatusError) {
    super(reason !== undefined
      ? `failed calling webhook ${goQuote(webhookName)}: ${reason.message}`
      : `failed calling webhook ${goQuote(webhookName)}; no further details available`);
    this.webhookName = webhookName;
    this.reason = reason;
    this.status = status;
  }
}

/** A webhook rejected the request with a Status (ErrWebhookRejection): the message is the Status's. */
export class ErrWebhookRejection extends Error {
  override readonly name = 'ErrWebhookRejection';
  readonly status: StatusError;
  constructor(status: StatusError) {
    super(status.message);
    this.status = status;
  }
}

/**
 * A transport failure of a POST, worded as Go's *url.Error: `Post "<url>": <cause>`, where the
 * cause is worded as Go's net, tls and x509 packages word it (see net-errors.ts).
 */
export class WebhookRequestError extends Error {
  override readonly name = 'WebhookRequestError';
  readonly url: string;
  /** Go's context.DeadlineExceeded: the call ran out of time. */
  readonly timedOut: boolean;
  constructor(url: string, cause: string, timedOut: boolean) {
    super(`Post ${goQuote(url)}: ${cause}`);
    this.url = url;
    this.timedOut = timedOut;
  }
}
