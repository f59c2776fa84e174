// Cooperative deadlines. kube's timeout filter runs the handler in its own goroutine and answers
// 504 when the deadline passes, whatever the handler is doing; on Node's single event loop a
// handler that computes synchronously keeps the timer from firing at all. So long synchronous
// work checks the clock at points where stopping is safe (before a storage write, every N items
// of a loop) and pauses there so the timer, /readyz and other requests get their turn.
// Counterpart of the deadline of k8s.io/apiserver/pkg/server/filters/timeout.go.
import { newTimeoutError, StatusError } from '../errors/status-error.ts';

/** What kube's handlers answer once the request's context is done (finisher.go), after NewTimeoutError's "Timeout: ". */
const REQUEST_TIMEOUT = 'request did not complete within requested timeout - context deadline exceeded';

/**
 * The error a request gets once its deadline passed: a 504 Timeout Status. Its own class so the
 * timeout filter can tell it from a Timeout some handler answers on purpose (e.g. "Too large
 * resource version").
 */
export class DeadlineExceededError extends StatusError {
  constructor() {
    // Go omits a zero retryAfterSeconds: the details are empty.
    super({ ...newTimeoutError(REQUEST_TIMEOUT, 0).status, details: {} });
  }
}

export interface Cancellable {
  readonly signal: AbortSignal;
  readonly deadline?: number;
}

/** Throws DeadlineExceededError when the request was aborted or its deadline passed; cheap (one clock read). */
export function checkDeadline(ctx: Cancellable): void {
  if (ctx.signal.aborted || (ctx.deadline !== undefined && Date.now() >= ctx.deadline)) throw new DeadlineExceededError();
}

/** Lets the event loop run everything that is ready (timers, I/O, other requests), then checkDeadline. */
export async function yieldPoint(ctx: Cancellable): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  checkDeadline(ctx);
}

/** How many items a loop handles between two yield points: small enough to keep a stall near a millisecond. */
const YIELD_EVERY = 256;

/** For loops: pause() yields every `every` calls and otherwise returns at once (no promise, no tick). */
export function pacer(ctx: Cancellable, every = YIELD_EVERY): () => Promise<void> | undefined {
  let n = 0;
  return () => (++n % every === 0 ? yieldPoint(ctx) : undefined);
}
