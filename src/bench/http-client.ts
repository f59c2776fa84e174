// A minimal HTTPS client over keep-alive connections, so the benchmark measures the server and
// not connection setup. The same client code drives kapi and the bare baseline server.
// No Go counterpart: the bench.
import { Agent, request } from 'node:https';

export interface HttpTarget {
  readonly host: string;
  readonly port: number;
  readonly agent: Agent;
  /** The CA bundle the server's certificate chains to. */
  readonly ca: string;
  /** Sent with every request (the bearer token, Accept). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface HttpResponse {
  readonly status: number;
  readonly body: Buffer;
}

const REQUEST_TIMEOUT_MS = 60_000;

/** A target at `url` (https://host:port) trusting `ca`, with a pool of `maxSockets` kept-alive connections. */
export function newTarget(url: string, ca: string, token: string, maxSockets: number): HttpTarget {
  const u = new URL(url);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return {
    host, port: Number(u.port), ca,
    agent: new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, ca }),
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  };
}

/** Sends one request and reads the whole body; rejects on network errors and after a bounded timeout. */
export function send(t: HttpTarget, method: string, path: string, body?: string): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...t.headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request({ host: t.host, port: t.port, method, path, agent: t.agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`${method} ${path}: timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawSend {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  /** Extra headers; they may replace the target's own (e.g. Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/**
 * One request with any media type and headers (the hostile phase). Resolves with status 0 when
 * the connection breaks or the timeout passes, so one hostile request cannot stop the bench.
 */
export function sendRaw(t: HttpTarget, r: RawSend): Promise<HttpResponse> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...t.headers, ...r.headers };
    if (r.body !== undefined) {
      headers['content-type'] = r.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(r.body);
    }
    const req = request({ host: t.host, port: t.port, method: r.method, path: r.path, agent: t.agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', () => resolve({ status: 0, body: Buffer.concat(chunks) }));
    });
    req.setTimeout(r.timeoutMs ?? REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ status: 0, body: Buffer.from(err.message) }));
    req.end(r.body);
  });
}

/** Like send, but rejects unless the status is one of `ok`. */
export async function sendOk(t: HttpTarget, method: string, path: string, body?: string,
  ok: readonly number[] = [200, 201]): Promise<HttpResponse> {
  const res = await send(t, method, path, body);
  if (!ok.includes(res.status)) {
    throw new Error(`${method} ${path}: HTTP ${res.status}: ${res.body.toString('utf8', 0, 500)}`);
  }
  return res;
}

/** Closes the pooled connections. */
export function closeTarget(t: HttpTarget): void {
  t.agent.destroy();
}
