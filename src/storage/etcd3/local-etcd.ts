// A real single-member etcd on free loopback ports with a throwaway data dir, for the tests and
// the bench, optionally serving its clients over TLS with client certificates required. Fails
// (never skips) when the `etcd` binary is missing.
// Counterpart of k8s.io/apiserver/pkg/storage/etcd3/testing (a test etcd).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { newSelfSignedCACert, newSignedCert } from '../../apimachinery/util/cert.ts';

/** PEM files of an etcd serving its clients over TLS. */
export interface LocalEtcdTLS {
  /** The CA that signed etcd's serving certificate and the client certificate. */
  readonly caFile: string;
  /** A client certificate etcd accepts (for --etcd-certfile). */
  readonly certFile: string;
  /** Its key (for --etcd-keyfile). */
  readonly keyFile: string;
  /** etcd's own serving certificate and key (127.0.0.1, ::1, localhost). */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
}

export interface LocalEtcd {
  /** Client URL, e.g. http://127.0.0.1:41234 (https:// in TLS mode). */
  readonly endpoint: string;
  readonly dataDir: string;
  /** The certificate files in TLS mode (under <dataDir>/pki), else undefined. */
  readonly tls: LocalEtcdTLS | undefined;
  /** Kills etcd (as a crash would) and keeps the data dir. */
  kill(): Promise<void>;
  /** Starts etcd again on the same ports and data dir; resolves when it is healthy. */
  restart(): Promise<void>;
  /** Stops etcd and removes the data dir. Idempotent. */
  stop(): Promise<void>;
}

export interface LocalEtcdOptions {
  /** The member name (also the data dir's prefix). */
  readonly name?: string;
  /** More etcd flags, e.g. ['--max-request-bytes', '4096']. */
  readonly extraArgs?: readonly string[];
  /** The error message when there is no `etcd` binary. */
  readonly missingMessage?: string;
  /** The etcd executable: `etcd` on the PATH unless given (the oracle brings a newer one). */
  readonly binary?: string;
  /**
   * Serve clients over https with a CA made for this etcd (and a client certificate signed by
   * it, see LocalEtcd.tls). Peers stay on plain http.
   */
  readonly tls?: boolean;
  /** With tls: require client certificates signed by the CA (etcd's --client-cert-auth). Default true. */
  readonly clientCertAuth?: boolean;
}

const START_TIMEOUT_MS = 20_000;
const OUTPUT_TAIL = 4000;

/** A loopback port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves when the child process has exited (at once if it already has). */
export function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

/** PEM contents for the health probe: etcd with --client-cert-auth wants a client certificate there too. */
interface ProbeTLS { readonly ca: Buffer; readonly cert: Buffer; readonly key: Buffer }

function getBody(url: string, tls: ProbeTLS | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const callback = (res: IncomingMessage): void => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => resolve(body)).on('error', reject);
    };
    const opts = { timeout: 1000 };
    const req = tls === undefined ? httpRequest(url, opts, callback) : httpsRequest(url, { ...opts, ...tls }, callback);
    req.on('timeout', () => req.destroy(new Error('health probe timed out'))).on('error', reject).end();
  });
}

async function healthy(endpoint: string, tls: ProbeTLS | undefined): Promise<boolean> {
  try {
    const body = JSON.parse(await getBody(`${endpoint}/health`, tls)) as { health?: unknown };
    return body.health === 'true';
  } catch {
    return false;
  }
}

const CERT_VALIDITY_DAYS = 7;

/** Writes a CA, etcd's serving pair and a client pair under `dir` (made here, mode 0700). */
async function writeTestPKI(dir: string): Promise<LocalEtcdTLS> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = await newSelfSignedCACert({ commonName: 'kapi-etcd-ca', validityDays: CERT_VALIDITY_DAYS });
  // clientAuth too: etcd's gRPC gateway dials etcd itself with the serving certificate.
  const server = await newSignedCert(ca, {
    commonName: 'kapi-etcd', hosts: ['localhost'], ips: ['127.0.0.1', '::1'],
    usages: ['serverAuth', 'clientAuth'], validityDays: CERT_VALIDITY_DAYS,
  });
  const client = await newSignedCert(ca, { commonName: 'kube-apiserver-etcd-client', usages: ['clientAuth'], validityDays: CERT_VALIDITY_DAYS });
  const files: LocalEtcdTLS = {
    caFile: join(dir, 'ca.crt'), certFile: join(dir, 'client.crt'), keyFile: join(dir, 'client.key'),
    serverCertFile: join(dir, 'server.crt'), serverKeyFile: join(dir, 'server.key'),
  };
  writeFileSync(files.caFile, ca.cert);
  writeFileSync(files.serverCertFile, server.cert);
  writeFileSync(files.serverKeyFile, server.key, { mode: 0o600 });
  writeFileSync(files.certFile, client.cert);
  writeFileSync(files.keyFile, client.key, { mode: 0o600 });
  return files;
}

/** The flags of a single-member cluster named `name` listening on the given loopback URLs. */
export function etcdArgs(name: string, dataDir: string, clientURL: string, peerURL: string): string[] {
  return [
    '--name', name, '--data-dir', dataDir,
    '--listen-client-urls', clientURL, '--advertise-client-urls', clientURL,
    '--listen-peer-urls', peerURL, '--initial-advertise-peer-urls', peerURL,
    '--initial-cluster', `${name}=${peerURL}`, '--initial-cluster-state', 'new',
    '--logger', 'zap', '--log-level', 'error',
  ];
}

const BIND_ATTEMPTS = 3;

/** Starts etcd and resolves once /health answers. */
export async function startLocalEtcd(opts: LocalEtcdOptions = {}): Promise<LocalEtcd> {
  const name = opts.name ?? 'kapi-etcd';
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  let tls: LocalEtcdTLS | undefined;
  try {
    // etcd ignores (with a warning) entries of its data dir other than member/.
    if (opts.tls === true) tls = await writeTestPKI(join(dataDir, 'pki'));
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const clientURL = async (): Promise<string> => `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${await freePort()}`;
  let endpoint = await clientURL();
  let peer = `http://127.0.0.1:${await freePort()}`;
  const tlsArgs = tls === undefined ? [] : [
    ...(opts.clientCertAuth === false ? [] : ['--client-cert-auth', '--trusted-ca-file', tls.caFile]),
    '--cert-file', tls.serverCertFile, '--key-file', tls.serverKeyFile,
  ];
  const argsFor = (): string[] => [...etcdArgs(name, dataDir, endpoint, peer), ...tlsArgs, ...(opts.extraArgs ?? [])];
  let args = argsFor();
  const probeTLS: ProbeTLS | undefined = tls === undefined ? undefined
    : { ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
  let proc: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    let output = '';
    let spawnError: NodeJS.ErrnoException | undefined;
    const p = spawn(opts.binary ?? 'etcd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    p.once('error', (err) => { spawnError = err; });
    const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-OUTPUT_TAIL); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (spawnError !== undefined) {
        throw new Error(spawnError.code === 'ENOENT'
          ? opts.missingMessage ?? 'etcd binary not found on PATH (apt-get install etcd-server)'
          : `etcd failed to start: ${spawnError.message}`);
      }
      if (p.exitCode !== null || p.signalCode !== null) throw new Error(`etcd exited during start-up:\n${output}`);
      if (await healthy(endpoint, probeTLS)) return;
      if (Date.now() > deadline) throw new Error(`etcd did not become healthy within ${START_TIMEOUT_MS} ms:\n${output}`);
      await sleep(50);
    }
  };

  const kill = async (): Promise<void> => {
    const p = proc;
    if (p === undefined) return;
    proc = undefined;
    p.kill('SIGKILL');
    await exited(p);
  };

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await launch();
        break;
      } catch (err) {
        // Another process may take a free port before etcd binds it: new ports, a few times.
        if (attempt >= BIND_ATTEMPTS || !(err instanceof Error && err.message.includes('address already in use'))) throw err;
        await kill();
        rmSync(join(dataDir, 'member'), { recursive: true, force: true });
        endpoint = await clientURL();
        peer = `http://127.0.0.1:${await freePort()}`;
        args = argsFor();
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, dataDir, tls, kill, restart: async () => { await kill(); await launch(); }, stop };
}
