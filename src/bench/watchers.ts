// The "1,000 watchers" phase: many watches on one namespace, then creates there; every create's
// event must reach every watcher. Per-event delivery latency is from sending the create to the
// event's arrival at one watcher; creates/s is the creates over the time until the last watcher
// had the last event. The load generator reads every event, so on a small machine its own work
// is part of the figure, for kapi and kube-apiserver alike. A server may end a watch it finds too
// slow (kube-apiserver's watch cache does): such a watch is counted as dropped, and from then on an
// event counts as delivered once every watch still open had it.
// No Go counterpart: the bench.
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { performance } from 'node:perf_hooks';
import { sendOk, type HttpTarget } from './http-client.ts';
import { runLoad } from './load.ts';
import { configMapBody, listResourceVersion } from './phases.ts';
import { kapiRoutes } from './routes.ts';
import { eventObjectName } from './watch-client.ts';

/** Watches opened at once: a burst of 1,000 would meet the server's limits on requests in flight. */
const OPEN_BATCH = 50;
const DELIVERY_TIMEOUT_MS = 120_000;

/** The name of a watch event's object; a cheap match on the servers' field order, else a full parse. */
export function eventName(line: string): string | undefined {
  const m = /"metadata":\{"name":"([^"\\]+)"/.exec(line);
  return m?.[1] ?? eventObjectName(JSON.parse(line) as unknown);
}

export interface WatcherRound {
  /** Per-event delivery latencies (ms), creates × watchers of them. */
  readonly latencies: number[];
  readonly creates: number;
  /** From the first create sent to the last event delivered. */
  readonly elapsedMs: number;
  /** Watches the server ended during the round. */
  readonly dropped: number;
}

export interface Watchers {
  /** Creates `count` ConfigMaps named <prefix><n> with `workers` concurrent clients; resolves when all were delivered. */
  round(prefix: string, count: number, workers: number): Promise<WatcherRound>;
  close(): void;
}

interface Pending {
  readonly sentAt: number;
  seen: number;
}

/**
 * Opens `n` watches on `ns` (each on its own connection, all from one list's resourceVersion, see
 * listResourceVersion) and resolves once all are established.
 */
export async function openWatchers(t: HttpTarget, ns: string, n: number): Promise<Watchers> {
  const path = kapiRoutes.watch(ns, await listResourceVersion(t, kapiRoutes, ns));
  const pending = new Map<string, Pending>();
  let latencies: number[] = [];
  let onDelivered: (() => void) | undefined;
  let failure: Error | undefined;
  let closed = false;
  let live = n;
  let dropped = 0;
  const reqs: ClientRequest[] = [];
  const fail = (err: Error): void => {
    failure ??= err;
    onDelivered?.();
  };
  const settle = (name: string, p: Pending): void => {
    if (p.seen < live) return;
    pending.delete(name);
    if (pending.size === 0) onDelivered?.();
  };
  /** A watch the server ended: the events still pending need one arrival fewer. */
  const drop = (why: string): void => {
    if (closed) return;
    live--;
    dropped++;
    if (live === 0) fail(new Error(`watch ${ns}: every watch ended (last: ${why})`));
    for (const [name, p] of pending) settle(name, p);
  };
  const onLine = (line: string, at: number): void => {
    const name = eventName(line);
    const p = name === undefined ? undefined : pending.get(name);
    if (p === undefined) return;
    latencies.push(at - p.sentAt);
    p.seen++;
    settle(name!, p);
  };
  const open = (): Promise<void> => new Promise((resolve, reject) => {
    const req = request({ host: t.host, port: t.port, path, method: 'GET', headers: t.headers,
      ca: t.ca, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${ns}: HTTP ${res.statusCode ?? 0}`));
        res.resume();
        return;
      }
      resolve();
      let buffered = '';
      let ended = false;
      const end = (why: string): void => {
        if (ended) return;
        ended = true;
        drop(why);
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffered += chunk;
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.trim() !== '') onLine(line, at);
        }
      });
      res.on('end', () => end('stream ended'));
      res.on('error', (err) => end(err.message));
      res.on('close', () => end('connection closed'));
    });
    req.on('error', reject);
    req.end();
    reqs.push(req);
  });
  const close = (): void => {
    closed = true;
    failure ??= new Error('watchers closed');
    for (const r of reqs) r.destroy();
  };
  try {
    for (let i = 0; i < n; i += OPEN_BATCH) await Promise.all(Array.from({ length: Math.min(OPEN_BATCH, n - i) }, open));
  } catch (err) {
    close();
    throw err;
  }

  return {
    async round(prefix, count, workers) {
      latencies = [];
      const droppedBefore = dropped;
      const start = performance.now();
      const delivered = new Promise<void>((resolve) => { onDelivered = resolve; });
      let next = 0;
      await runLoad({
        workers, durationMs: DELIVERY_TIMEOUT_MS, maxOps: count,
        op: async () => {
          const name = `${prefix}${next++}`;
          pending.set(name, { sentAt: performance.now(), seen: 0 });
          await sendOk(t, 'POST', kapiRoutes.create(ns), configMapBody(ns, name, 0));
        },
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => { timer = setTimeout(resolve, DELIVERY_TIMEOUT_MS); });
      if (pending.size > 0 && failure === undefined) await Promise.race([delivered, timeout]);
      clearTimeout(timer);
      const elapsedMs = performance.now() - start;
      onDelivered = undefined;
      if (failure !== undefined) throw failure;
      if (pending.size > 0) {
        const missing = [...pending.values()].reduce((sum, p) => sum + n - p.seen, 0);
        pending.clear();
        throw new Error(`watchers: ${missing} events not delivered within ${DELIVERY_TIMEOUT_MS} ms`);
      }
      return { latencies, creates: count, elapsedMs, dropped: dropped - droppedBefore };
    },
    close,
  };
}
