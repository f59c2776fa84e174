// A raw HTTPS watch (`?watch=1`) that collects the events as they arrive and notices when the server
// ends the stream: for the tests that compare event order across servers or expect a watch to close.
// No Go counterpart: the e2e test harness.
import { request as httpsRequest } from 'node:https';
import type { ClientRequest } from 'node:http';
import type { AdminCredentials } from './https-client.ts';

export interface WatchEventJSON {
  readonly type: string;
  readonly object: {
    readonly kind?: string;
    readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string };
    readonly data?: Readonly<Record<string, string>>;
    readonly code?: number;
    readonly reason?: string;
  };
}

export interface WatchStream {
  /** The HTTP status of the watch response. */
  readonly status: number;
  /** Every event received so far, in arrival order. */
  events(): readonly WatchEventJSON[];
  /** Whether the server has ended the stream (or the connection broke). */
  ended(): boolean;
  /** Resolves once `pred` holds for the events so far; rejects when the stream ends first or the guard fires. */
  waitFor(pred: (events: readonly WatchEventJSON[]) => boolean, what: string): Promise<readonly WatchEventJSON[]>;
  /** Resolves when the stream has ended; rejects when the guard fires first. */
  waitEnded(what: string): Promise<void>;
  /** Aborts the request from the client side. */
  stop(): void;
}

/** A guard against a hang, not a timing assertion. */
const HANG_GUARD_MS = 30_000;

/** Opens `path` (which must already carry `watch=1`) and resolves once the response headers arrived. */
export function openWatch(creds: AdminCredentials, path: string): Promise<WatchStream> {
  const url = new URL(path, creds.server);
  const events: WatchEventJSON[] = [];
  let isEnded = false;
  let buffer = '';
  const waiters = new Set<() => void>();
  const notify = (): void => { for (const w of [...waiters]) w(); };
  let req: ClientRequest;
  return new Promise((resolve, reject) => {
    req = httpsRequest(url, {
      method: 'GET', ca: creds.ca, agent: false,
      headers: { Accept: 'application/json', Authorization: `Bearer ${creds.token}` },
    }, (res) => {
      const finish = (): void => { isEnded = true; notify(); };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line !== '') events.push(JSON.parse(line) as WatchEventJSON);
        }
        notify();
      });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
      const until = (ok: () => boolean, what: string, failOnEnd: boolean): Promise<void> => new Promise((res2, rej2) => {
        const guard = setTimeout(() => { done(); rej2(new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events)}`)); }, HANG_GUARD_MS);
        const check = (): void => {
          if (ok()) { done(); res2(); } else if (failOnEnd && isEnded) {
            done(); rej2(new Error(`watch ended before ${what}; events: ${JSON.stringify(events)}`));
          }
        };
        const done = (): void => { clearTimeout(guard); waiters.delete(check); };
        waiters.add(check);
        check();
      });
      resolve({
        status: res.statusCode ?? 0,
        events: () => events,
        ended: () => isEnded,
        async waitFor(pred, what) {
          await until(() => pred(events), what, true);
          return events;
        },
        waitEnded: (what) => until(() => isEnded, what, false),
        stop: () => { req.destroy(); },
      });
    });
    req.on('error', (err) => { isEnded = true; notify(); reject(err); });
    req.end();
  });
}
