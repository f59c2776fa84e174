// Test helpers: an HTTPS server on 127.0.0.1 with a CA of its own, for webhook tests (unit and
// end-to-end). No Go counterpart (kube's tests use httptest.NewTLSServer with fixed certificates).
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { newSelfSignedCACert, newSignedCert, type CertKeyPair } from '../apimachinery/util/cert.ts';

export interface TestPKI {
  readonly ca: CertKeyPair;
  /** The CA certificate as a webhook's `caBundle` (base64 of the PEM). */
  readonly caBundle: string;
  /** A serving certificate for 127.0.0.1, localhost and the given DNS names. */
  readonly serving: CertKeyPair;
}

/** A new CA and a serving certificate signed by it. */
export async function newTestPKI(dnsNames: readonly string[] = [], ips: readonly string[] = ['127.0.0.1']): Promise<TestPKI> {
  const ca = await newSelfSignedCACert({ commonName: 'webhook-test-ca', validityDays: 1 });
  const serving = await newSignedCert(ca, {
    commonName: 'webhook', hosts: ['localhost', ...dnsNames], ips, usages: ['serverAuth'], validityDays: 1,
  });
  return { ca, caBundle: Buffer.from(ca.cert).toString('base64'), serving };
}

export type TestHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

export interface TestWebhookServer {
  readonly port: number;
  readonly url: string;
  /** Replaces the handler (a test switches behaviours without a new server). */
  setHandler(h: TestHandler): void;
  close(): Promise<void>;
}

/** An HTTPS server on `host` (default 127.0.0.1) and a free port serving `handler` with `pki.serving`. */
export async function startTestWebhookServer(pki: TestPKI, handler: TestHandler, host = '127.0.0.1'): Promise<TestWebhookServer> {
  let current = handler;
  const server = https.createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => current(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  // A TLS failure on the client's side is expected in tests; it must not crash the server.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `https://${host.includes(':') ? `[${host}]` : host}:${String(port)}`,
    setHandler(h) { current = h; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
