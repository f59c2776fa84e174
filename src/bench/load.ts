// Closed-loop load: a fixed number of workers, each issuing its next request when the previous
// one finishes, until a deadline or an operation budget runs out (always bounded).
// No Go counterpart: the bench.
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  readonly workers: number;
  readonly durationMs: number;
  readonly maxOps: number;
  /** One operation; `worker` is the worker's index, `seq` the global operation number. */
  readonly op: (worker: number, seq: number) => Promise<void>;
}

export interface LoadResult {
  readonly ops: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
}

/** Runs the load; rejects with the first operation's error after stopping every worker. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const start = performance.now();
  const deadline = start + o.durationMs;
  let issued = 0;
  let completed = 0;
  let failed = false;
  const worker = async (w: number): Promise<void> => {
    while (!failed && issued < o.maxOps && performance.now() < deadline) {
      const seq = issued++;
      try {
        await o.op(w, seq);
      } catch (err) {
        failed = true;
        throw err;
      }
      completed++;
    }
  };
  const results = await Promise.allSettled(Array.from({ length: o.workers }, (_, w) => worker(w)));
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected !== undefined) throw rejected.reason;
  const elapsedMs = performance.now() - start;
  return { ops: completed, elapsedMs, perSecond: completed / (elapsedMs / 1000) };
}
