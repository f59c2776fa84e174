// Raw HTTPS requests against a kapi server with the admin kubeconfig's CA and token: for the cases
// kubectl cannot produce (malformed bodies, oversized bodies, missing credentials).
// No Go counterpart: the e2e test harness.
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { parse } from 'yaml';

export interface AdminCredentials {
  /** https://127.0.0.1:<port> */
  readonly server: string;
  readonly ca: string;
  readonly token: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function first(v: unknown, key: string): Record<string, unknown> {
  if (!Array.isArray(v) || !isRecord(v[0]) || !isRecord(v[0][key])) throw new Error(`kubeconfig: no ${key}`);
  return v[0][key];
}

/** Reads server URL, CA and bearer token from the kubeconfig `kapi serve` writes. */
export async function loadAdminCredentials(kubeconfigPath: string): Promise<AdminCredentials> {
  const doc: unknown = parse(await readFile(kubeconfigPath, 'utf8'));
  if (!isRecord(doc)) throw new Error('kubeconfig: not a mapping');
  const cluster = first(doc['clusters'], 'cluster');
  const user = first(doc['users'], 'user');
  const server = cluster['server'];
  const caData = cluster['certificate-authority-data'];
  const token = user['token'];
  if (typeof server !== 'string' || typeof caData !== 'string' || typeof token !== 'string') {
    throw new Error('kubeconfig: missing server, certificate-authority-data or token');
  }
  return { server, ca: Buffer.from(caData, 'base64').toString('utf8'), token };
}

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: string | Buffer;
  readonly contentType?: string;
  /** false: send no Authorization header at all. */
  readonly auth?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The body's bytes (protobuf answers). */
  readonly body: Buffer;
  /** The body parsed as JSON; throws when it is not JSON. */
  json(): unknown;
}

/** One request on its own connection (no keep-alive pool, so nothing outlives the test). */
export function rawRequest(creds: AdminCredentials, req: RawRequest): Promise<RawResponse> {
  // The path goes on the wire as given (no URL parsing): tests send "..", "%2e%2e" and "%2F".
  const server = new URL(creds.server);
  const target = { hostname: server.hostname, port: server.port, path: req.path };
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (req.auth !== false) headers['Authorization'] = `Bearer ${creds.token}`;
  if (req.body !== undefined) {
    headers['Content-Type'] = req.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(req.body));
  }
  return new Promise((resolve, reject) => {
    const r = httpsRequest({ ...target, method: req.method, headers, ca: creds.ca, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body, json: () => JSON.parse(text) as unknown });
      });
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** The `Status` fields tests compare. */
export interface StatusBody {
  kind?: unknown;
  apiVersion?: unknown;
  status?: unknown;
  reason?: unknown;
  code?: unknown;
  message?: unknown;
  details?: unknown;
}

export function asStatus(v: unknown): StatusBody {
  if (!isRecord(v)) throw new Error(`not an object: ${JSON.stringify(v)}`);
  return v;
}
