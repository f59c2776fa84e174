// The retry loop of the authentication and authorization webhooks: a call that failed in a way
// that may pass (connection reset, 500 InternalError, timeouts, 429, a Retry-After) is tried
// again after a growing pause, up to five tries; the last error is what the caller sees.
// Counterpart of WithExponentialBackoff, DefaultShouldRetry and DefaultRetryBackoffWithInitialDelay
// in k8s.io/apiserver/pkg/util/webhook/webhook.go.
import { StatusError } from '../apimachinery/errors/status-error.ts';
import { WebhookRequestError } from './errors.ts';

/** wait.Backoff as the webhooks use it. */
export interface Backoff {
  /** The first pause, in milliseconds. */
  readonly durationMs: number;
  readonly factor: number;
  readonly jitter: number;
  /** How many tries in all. */
  readonly steps: number;
}

/** kube's default for the token and authorization webhooks: 500ms, ×1.5, 20% jitter, 5 tries. */
export const DEFAULT_AUTH_WEBHOOK_BACKOFF: Backoff = { durationMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/** DefaultShouldRetry: whether a failed call may succeed if tried again. */
export function shouldRetry(err: unknown): boolean {
  if (err instanceof WebhookRequestError) return err.message.endsWith('connection reset by peer');
  if (!(err instanceof StatusError)) return false;
  const { reason, details } = err.status;
  if (reason === 'InternalError' || reason === 'Timeout' || reason === 'TooManyRequests') return true;
  if (details === undefined) return false;
  return reason === 'ServerTimeout' || (details.retryAfterSeconds ?? 0) > 0;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `call` until it succeeds, fails in a way not worth retrying, or the tries run out; rejects
 * with the last error.
 */
export async function withExponentialBackoff<T>(backoff: Backoff, call: () => Promise<T>): Promise<T> {
  let pause = backoff.durationMs;
  for (let step = 1; ; step++) {
    try {
      return await call();
    } catch (err) {
      if (!shouldRetry(err) || step >= backoff.steps) throw err;
    }
    await sleep(backoff.jitter > 0 ? pause + Math.random() * backoff.jitter * pause : pause);
    pause *= backoff.factor;
  }
}
