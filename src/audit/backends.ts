// The modes every audit backend runs in, and event truncation in front of it.
// blocking: each stage's events are written before the request goes on (a failure is logged and
// counted); blocking-strict: as blocking, but a failure fails the request; batch: events queue in
// a buffer of --audit-*-batch-buffer-size (dropped when full) and are written in batches of up
// to -batch-max-size, at the latest after -batch-max-wait, at most -batch-throttle-qps batches a
// second (bursts of -batch-throttle-burst) when throttling is on.
// Counterpart of k8s.io/apiserver/plugin/pkg/audit/{buffered,truncate} and the backend options of
// k8s.io/apiserver/pkg/server/options/audit.go.
import { observeAuditErrors } from './metrics.ts';
import type { AuditEvent, Sink } from './types.ts';

export type Mode = 'batch' | 'blocking' | 'blocking-strict';
export const MODES: readonly Mode[] = ['batch', 'blocking', 'blocking-strict'];

export interface BatchOptions {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  readonly throttleEnable: boolean;
  readonly throttleQPS: number;
  readonly throttleBurst: number;
}

export interface TruncateOptions {
  readonly enabled: boolean;
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

/** What a backend writes: a batch of events, in order; rejects when it could not. */
export type BatchWriter = (events: readonly AuditEvent[]) => Promise<void> | void;

/**
 * The truncate plugin: an event larger than maxEventSize loses its request and response bodies
 * (and is annotated audit.k8s.io/truncated), and is dropped when still too large; batches are
 * split so that none is larger than maxBatchSize.
 */
export function withTruncate(plugin: string, opts: TruncateOptions, write: BatchWriter): BatchWriter {
  if (!opts.enabled) return write;
  const size = (ev: AuditEvent): number => Buffer.byteLength(JSON.stringify(ev));
  return async (events) => {
    let batch: AuditEvent[] = [];
    let batchBytes = 0;
    for (let ev of events) {
      let n = size(ev);
      if (n > opts.maxEventSize) {
        const { requestObject: _q, responseObject: _r, ...rest } = ev;
        ev = { ...rest, annotations: { ...(rest.annotations ?? {}), 'audit.k8s.io/truncated': 'true' } };
        n = size(ev);
        if (n > opts.maxEventSize) {
          observeAuditErrors(plugin, 1);
          console.error(`Error in audit plugin '${plugin}' affecting 1 audit events: event is too large even after truncating`);
          continue;
        }
      }
      if (batch.length > 0 && batchBytes + n > opts.maxBatchSize) {
        await write(batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push(ev);
      batchBytes += n;
    }
    if (batch.length > 0) await write(batch);
  };
}

function reportError(plugin: string, err: unknown, n: number): void {
  observeAuditErrors(plugin, n);
  console.error(`Error in audit plugin '${plugin}' affecting ${n} audit events: ${err instanceof Error ? err.message : String(err)}`);
}

/** A backend in blocking or blocking-strict mode. */
function blockingSink(plugin: string, write: BatchWriter, strict: boolean, close: () => Promise<void> | void): Sink {
  return {
    async processEvents(events) {
      try {
        await write(events);
      } catch (err) {
        reportError(plugin, err, events.length);
        if (strict) throw err;
      }
    },
    async shutdown() { await close(); },
  };
}

/** A backend in batch mode (the buffered plugin). */
function batchSink(plugin: string, write: BatchWriter, b: BatchOptions, close: () => Promise<void> | void): Sink {
  const queue: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();
  let tokens = b.throttleBurst;
  let lastRefill = Date.now();
  const takeToken = async (): Promise<void> => {
    if (!b.throttleEnable || b.throttleQPS <= 0) return;
    for (;;) {
      const now = Date.now();
      tokens = Math.min(Math.max(b.throttleBurst, 1), tokens + ((now - lastRefill) / 1000) * b.throttleQPS);
      lastRefill = now;
      if (tokens >= 1) { tokens -= 1; return; }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / b.throttleQPS) * 1000)));
    }
  };
  const flush = (): void => {
    if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
    while (queue.length > 0) {
      const batch = queue.splice(0, Math.max(1, b.maxBatchSize));
      sending = sending.then(async () => {
        await takeToken();
        try { await write(batch); } catch (err) { reportError(plugin, err, batch.length); }
      });
    }
  };
  return {
    processEvents(events) {
      for (const ev of events) {
        if (queue.length >= b.bufferSize) {
          reportError(plugin, new Error('audit buffer queue blocked'), 1);
          continue;
        }
        queue.push(ev);
      }
      if (queue.length >= b.maxBatchSize || b.maxBatchWaitMs <= 0) flush();
      else timer ??= setTimeout(flush, b.maxBatchWaitMs);
    },
    async shutdown() {
      flush();
      await sending;
      await close();
    },
  };
}

export function newModeSink(plugin: string, mode: Mode, write: BatchWriter, batch: BatchOptions, close: () => Promise<void> | void): Sink {
  return mode === 'batch' ? batchSink(plugin, write, batch, close) : blockingSink(plugin, write, mode === 'blocking-strict', close);
}

/** Events go to every backend (union), each after the other; a strict backend's failure rejects. */
export function unionSink(sinks: readonly Sink[]): Sink {
  if (sinks.length === 1 && sinks[0] !== undefined) return sinks[0];
  return {
    async processEvents(events) {
      for (const s of sinks) await s.processEvents(events);
    },
    async shutdown() { await Promise.all(sinks.map((s) => s.shutdown())); },
  };
}
