// Reads a newline-delimited JSON event stream (a Kubernetes watch, or the baseline's stream) and
// timestamps each event on arrival, so a writer can wait for the event naming its object.
// No Go counterpart: the bench.
import { request } from 'node:https';
import type { ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { HttpTarget } from './http-client.ts';

export interface EventStream {
  /** Resolves once the response headers arrived (the watch is established). */
  readonly ready: Promise<void>;
  /** Resolves with the arrival time (performance.now()) of the event for `name`; rejects after timeoutMs. */
  arrival(name: string, timeoutMs: number): Promise<number>;
  /** Size in bytes (with its newline) of the last event line received. */
  lastEventBytes(): number;
  close(): void;
}

interface Waiter {
  resolve(at: number): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** Kubernetes watch events and the baseline's events both carry object.metadata.name. */
export function eventObjectName(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null || !('object' in event)) return undefined;
  const obj = event.object;
  if (typeof obj !== 'object' || obj === null || !('metadata' in obj)) return undefined;
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null || !('name' in meta)) return undefined;
  return typeof meta.name === 'string' ? meta.name : undefined;
}

/** Opens the stream on its own connection (outside the target's pool). */
export function openEventStream(t: HttpTarget, path: string): EventStream {
  const arrived = new Map<string, number>();
  const waiters = new Map<string, Waiter>();
  let failure: Error | undefined;
  let lastBytes = 0;
  const fail = (err: Error): void => {
    failure ??= err;
    for (const w of waiters.values()) {
      clearTimeout(w.timer);
      w.reject(err);
    }
    waiters.clear();
  };
  let req: ClientRequest | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    req = request({ host: t.host, port: t.port, path, method: 'GET', headers: t.headers,
      ca: t.ca, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET ${path}: HTTP ${res.statusCode ?? 0}`));
        res.resume();
        return;
      }
      resolve();
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        pending += chunk;
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          nl = pending.indexOf('\n');
          if (line.trim() === '') continue;
          lastBytes = Buffer.byteLength(line) + 1;
          const name = eventObjectName(JSON.parse(line) as unknown);
          if (name === undefined) continue;
          const w = waiters.get(name);
          if (w === undefined) {
            arrived.set(name, at);
          } else {
            waiters.delete(name);
            clearTimeout(w.timer);
            w.resolve(at);
          }
        }
      });
      res.on('end', () => fail(new Error(`GET ${path}: stream ended`)));
      res.on('error', fail);
    });
    req.on('error', (err) => {
      reject(err);
      fail(err);
    });
    req.end();
  });
  return {
    ready,
    arrival(name, timeoutMs) {
      const at = arrived.get(name);
      if (at !== undefined) {
        arrived.delete(name);
        return Promise.resolve(at);
      }
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(name);
          reject(new Error(`no event for ${name} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.set(name, { resolve, reject, timer });
      });
    },
    lastEventBytes: () => lastBytes,
    close() {
      fail(new Error('stream closed'));
      req?.destroy();
    },
  };
}
