// A raw WebSocket client for the watch-over-WebSocket tests: writes the upgrade request itself (so
// that tests choose every header), reads the handshake answer and then the server's frames.
// No Go counterpart: the e2e test harness.
import { connect, type TLSSocket } from 'node:tls';
import { decodeFrame, encodeFrame } from '../../endpoints/handlers/websocket.ts';
import type { AdminCredentials } from './https-client.ts';

export interface WsFrame { readonly opcode: number; readonly payload: Buffer }

export interface WsSession {
  /** The handshake answer's status line, e.g. `HTTP/1.1 101 Switching Protocols`. */
  readonly statusLine: string;
  /** Its headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body of a refusal (an answer other than 101). */
  readonly body: string;
  frames(): readonly WsFrame[];
  /** Resolves once `pred` holds for the frames so far; rejects when the connection ends first or the guard fires. */
  waitFor(pred: (frames: readonly WsFrame[]) => boolean, what: string): Promise<readonly WsFrame[]>;
  /** Sends a masked client frame. */
  send(opcode: number, payload: Buffer): void;
  closed(): boolean;
  stop(): void;
}

/** A guard against a hang, not a timing assertion. */
const HANG_GUARD_MS = 30_000;
const MASK = Buffer.from([1, 2, 3, 4]);

function masked(opcode: number, payload: Buffer): Buffer {
  const plain = encodeFrame(opcode, payload);
  const headerLength = plain.length - payload.length;
  const out = Buffer.concat([plain.subarray(0, headerLength), MASK, payload.map((b, i) => b ^ (MASK[i % 4] ?? 0))]);
  out[1] = (out[1] ?? 0) | 0x80;
  return out;
}

/** Sends a WebSocket upgrade for `path` with `headers` (Origin and Sec-WebSocket-* included unless overridden). */
export function openWebSocket(creds: AdminCredentials, path: string, headers: Readonly<Record<string, string>> = {}): Promise<WsSession> {
  const url = new URL(creds.server);
  const all: Record<string, string> = {
    Host: url.host, Authorization: `Bearer ${creds.token}`, Connection: 'Upgrade', Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', Origin: url.origin, ...headers,
  };
  const lines = Object.entries(all).filter(([, v]) => v !== '').map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return new Promise((resolveOuter, rejectOuter) => {
    const guard = setTimeout(() => {
      rejectOuter(new Error(`no complete answer to the upgrade of ${path} within ${HANG_GUARD_MS} ms`));
      socket.destroy();
    }, HANG_GUARD_MS);
    const resolve = (v: WsSession): void => { clearTimeout(guard); resolveOuter(v); };
    const reject = (err: Error): void => { clearTimeout(guard); rejectOuter(err); };
    const socket: TLSSocket = connect({ host: url.hostname, port: Number(url.port), ca: creds.ca, servername: 'localhost' }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n`);
    });
    let buf = Buffer.alloc(0);
    let head: { statusLine: string; headers: Record<string, string> } | undefined;
    const frames: WsFrame[] = [];
    let isClosed = false;
    const waiters = new Set<() => void>();
    const notify = (): void => { for (const w of [...waiters]) w(); };
    const session = (body: string): WsSession => ({
      statusLine: head?.statusLine ?? '', headers: head?.headers ?? {}, body,
      frames: () => frames,
      waitFor: (pred, what) => new Promise((res2, rej2) => {
        const guard = setTimeout(() => { done(); rej2(new Error(`timed out waiting for ${what}`)); }, HANG_GUARD_MS);
        const check = (): void => {
          if (pred(frames)) { done(); res2(frames); } else if (isClosed) { done(); rej2(new Error(`connection closed before ${what}`)); }
        };
        const done = (): void => { clearTimeout(guard); waiters.delete(check); };
        waiters.add(check);
        check();
      }),
      send: (opcode, payload) => { socket.write(masked(opcode, payload)); },
      closed: () => isClosed,
      stop: () => { socket.destroy(); },
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (head === undefined) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine = '', ...rest] = buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const l of rest) {
          const i = l.indexOf(':');
          headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
        }
        head = { statusLine, headers };
        buf = buf.subarray(end + 4);
        if (statusLine.includes(' 101 ')) resolve(session(''));
        else socket.once('end', () => { resolve(session(buf.toString())); socket.destroy(); });
      }
      if (!head.statusLine.includes(' 101 ')) {
        // A refusal: its body is what follows, up to its length or until the server closes.
        const length = Number(head.headers['content-length'] ?? 'NaN');
        if (Number.isFinite(length) && buf.length >= length) { resolve(session(buf.toString())); socket.destroy(); }
        return;
      }
      for (;;) {
        const f = decodeFrame(buf);
        if (f === undefined || f === 'too large') break;
        frames.push({ opcode: f.opcode, payload: f.payload });
        buf = buf.subarray(f.size);
      }
      notify();
    });
    socket.on('close', () => { isClosed = true; notify(); if (head === undefined) reject(new Error('closed before an answer')); });
    socket.on('error', (err) => { isClosed = true; notify(); if (head === undefined) reject(err); });
  });
}
