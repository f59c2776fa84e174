// The worker loop every kube controller writes (processNextWorkItem): take a key, sync it, and on
// failure retry it with the queue's backoff; on success forget its failures.
// No Go counterpart: kube's controllers each write this loop themselves.
import type { RateLimitingQueue } from './queue.ts';

/**
 * What a sync says besides success: come back after a fixed delay, without counting a failure
 * (kube's namespace controller does so while content remains).
 */
export type SyncResult = void | { readonly requeueAfterMs: number };

export interface WorkerOptions {
  /** For the log line of a failed sync. */
  readonly name: string;
  /** Errors not worth a log line (conflicts, a lost race); they are retried all the same. */
  readonly quiet?: (err: unknown) => boolean;
  readonly log?: (message: string) => void;
}

/**
 * Runs `workers` loops over the queue until it shuts down; resolves when they have all ended.
 * A sync that throws is retried after the rate limiter's delay; one that asks is retried after its delay.
 */
export async function runWorkers<K>(queue: RateLimitingQueue<K>, workers: number, sync: (key: K) => Promise<SyncResult>,
  opts: WorkerOptions): Promise<void> {
  const log = opts.log ?? ((m) => console.error(m));
  const loop = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        const r = await sync(key);
        queue.forget(key);
        if (r !== undefined) queue.addAfter(key, r.requeueAfterMs);
      } catch (err) {
        if (opts.quiet?.(err) !== true && !queue.isShuttingDown) log(`${opts.name}: ${String(key)}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
        queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, loop));
}
