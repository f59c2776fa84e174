// An aggregated API server of the test's own: HTTPS with a CA of its own (serving certificate
// for `<service>.<namespace>.svc`), asking for a client certificate, serving one group version
// (discovery, a list of flunders as JSON or Table, a watch the test feeds, and an upgrade path
// that echoes bytes once switched), and recording who called with which front-proxy headers.
// No Go counterpart: kube's e2e tests deploy the sample-apiserver image instead.
import * as https from 'node:https';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { newSelfSignedCACert, newSignedCert, type CertKeyPair } from '../../apimachinery/util/cert.ts';

export const GROUP = 'wardle.example.com';
export const VERSION = 'v1alpha1';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** CN of the client certificate the caller presented ('' for none). */
  readonly clientCN: string;
}

export interface AggregatedBackend {
  readonly ca: CertKeyPair;
  /** The CA as an APIService's caBundle. */
  readonly caBundle: string;
  readonly host: string;
  readonly port: number;
  readonly seen: SeenRequest[];
  /** Sends a watch event to every open watch. */
  emit(type: 'ADDED' | 'MODIFIED' | 'DELETED', name: string): void;
  /** Stops listening (open connections are cut); start() listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const flunder = (name: string): Record<string, unknown> =>
  ({ apiVersion: `${GROUP}/${VERSION}`, kind: 'Flunder', metadata: { name, namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z', resourceVersion: '1' } });

/** A version the backend does not serve (its discovery answers 404). */
export const UNSERVED_VERSION = 'v9';

function resourceList(version: string): Record<string, unknown> {
  return {
    kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${GROUP}/${version}`,
    resources: [{ name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list', 'watch'] }],
  };
}

function table(names: readonly string[]): Record<string, unknown> {
  return {
    kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '1' },
    columnDefinitions: [{ name: 'Name', type: 'string', format: 'name', description: '', priority: 0 }],
    rows: names.map((n) => ({ cells: [n], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: n } } })),
  };
}

/** `serviceName`: the `<service>.<namespace>.svc` the serving certificate is for. `clientCA`: who may present a certificate. */
export async function startAggregatedBackend(host: string, serviceName: string, clientCA: string): Promise<AggregatedBackend> {
  const ca = await newSelfSignedCACert({ commonName: 'aggregated-backend-ca', validityDays: 1 });
  const serving = await newSignedCert(ca, { commonName: serviceName, hosts: [serviceName], usages: ['serverAuth'], validityDays: 1 });
  const seen: SeenRequest[] = [];
  const watches = new Set<ServerResponse>();
  const names = ['alpha', 'beta'];
  const base = `/apis/${GROUP}/${VERSION}`;
  const server = https.createServer({ cert: serving.cert, key: serving.key, ca: clientCA, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const cn = (req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '';
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, clientCN: Array.isArray(cn) ? cn.join(',') : cn });
    const [path = '', query = ''] = (req.url ?? '').split('?');
    const json = (code: number, body: unknown): void => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const discovery = new RegExp(`^/apis/${GROUP.replaceAll('.', '\\.')}/([^/]+)$`).exec(path);
    if (discovery !== null && discovery[1] !== UNSERVED_VERSION) { json(200, resourceList(discovery[1] ?? '')); return; }
    if (path === `${base}/namespaces/default/flunders`) {
      if (new URLSearchParams(query).get('watch') === 'true') {
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        res.flushHeaders();
        watches.add(res);
        res.on('close', () => watches.delete(res));
        return;
      }
      if ((req.headers.accept ?? '').includes('as=Table')) { json(200, table(names)); return; }
      json(200, { apiVersion: `${GROUP}/${VERSION}`, kind: 'FlunderList', metadata: { resourceVersion: '1' }, items: names.map(flunder) });
      return;
    }
    if (path === `${base}/redirect`) { res.writeHead(302, { location: 'https://example.invalid/' }); res.end(); return; }
    json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'not here' });
  });
  // The upgrade path: 101, then an echo of whatever comes, prefixed.
  server.on('upgrade', (req, socket: Socket) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, clientCN: '' });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test-echo\r\nConnection: Upgrade\r\n\r\n');
    socket.on('data', (d: Buffer) => socket.write(`echo:${d.toString('utf8')}`));
    socket.on('error', () => socket.destroy());
  });
  server.on('tlsClientError', () => undefined);
  let port = 0;
  const listen = (): Promise<void> => new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); port = (server.address() as AddressInfo).port; resolve(); });
  });
  const stop = (): Promise<void> => new Promise((resolve) => {
    for (const w of watches) w.destroy();
    server.closeAllConnections();
    if (!server.listening) { resolve(); return; }
    server.close(() => resolve());
  });
  await listen();
  return {
    ca, caBundle: Buffer.from(ca.cert).toString('base64'), host, get port() { return port; }, seen,
    emit(type, name) {
      for (const w of watches) w.write(`${JSON.stringify({ type, object: flunder(name) })}\n`);
    },
    stop, start: listen, close: stop,
  };
}
