// The oracle: the reference kube-apiserver (built from Go modules by scripts/build-oracle.sh) on
// its own etcd, started the way kapi starts by default, for the differential tests. The binaries
// are never built here: a machine without the cached build gets a reason to skip.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { newSelfSignedCACert, newSignedCert } from '../../apimachinery/util/cert.ts';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../authn/serviceaccount/issuer.ts';
import { serverURL, writeAdminKubeconfig } from '../../cli/kubeconfig.ts';
import { exited, freePort } from '../../storage/etcd3/local-etcd.ts';
import { startEtcd, type EtcdServer } from '../../storage/testing/etcd-server.ts';
import { rawRequest, type AdminCredentials, type RawRequest, type RawResponse } from './https-client.ts';

const ORACLE_MODULE = fileURLToPath(new URL('../../../oracle/', import.meta.url));
/** The files whose hash names the build; keep in step with scripts/build-oracle.sh. */
const KEYED_FILES = ['go.mod', 'go.sum', 'cmd/kube-apiserver/main.go', 'cmd/kube-controller-manager/main.go'];
export const ORACLE_BUILD_COMMAND = 'scripts/build-oracle.sh';

export interface OracleBuild {
  /** The k8s.io/kubernetes version of oracle/go.mod, e.g. v1.36.3. */
  readonly version: string;
  readonly dir: string;
  readonly kubeApiserver: string;
  readonly kubeControllerManager: string;
}

/** Where scripts/build-oracle.sh puts (or put) the binaries of the current oracle/go.mod. */
export function oracleBuildLocation(env: NodeJS.ProcessEnv = process.env): OracleBuild {
  const goMod = readFileSync(join(ORACLE_MODULE, 'go.mod'), 'utf8');
  const version = /^\s*k8s\.io\/kubernetes (v\S+)/m.exec(goMod)?.[1];
  if (version === undefined) throw new Error('oracle/go.mod requires no k8s.io/kubernetes version');
  const hash = createHash('sha256');
  for (const f of KEYED_FILES) hash.update(readFileSync(join(ORACLE_MODULE, f)));
  const cache = env['KAPI_ORACLE_CACHE'] ?? join(env['HOME'] ?? homedir(), '.cache', 'kapi-oracle');
  const dir = join(cache, version, hash.digest('hex').slice(0, 16));
  return { version, dir, kubeApiserver: join(dir, 'kube-apiserver'), kubeControllerManager: join(dir, 'kube-controller-manager') };
}

/** Why the oracle cannot run on this machine, or undefined when its build is cached. */
export function oracleUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const b = oracleBuildLocation(env);
  if (existsSync(b.kubeApiserver)) return undefined;
  return `the oracle kube-apiserver ${b.version} is not built on this machine (${b.kubeApiserver} missing); ` +
    `run ${ORACLE_BUILD_COMMAND} (about 10 minutes per binary on 2 cores) to enable this test`;
}

export interface Oracle {
  readonly creds: AdminCredentials;
  /** An admin kubeconfig for kubectl. */
  readonly kubeconfigPath: string;
  readonly version: string;
  readonly etcd: EtcdServer;
  request(req: RawRequest): Promise<RawResponse>;
  /** The last lines kube-apiserver logged (for failure messages). */
  logTail(): string;
  /** Stops kube-apiserver, then etcd, and removes the files. Idempotent. */
  stop(): Promise<void>;
}

export interface StartOracleOptions {
  /** kapi's default is AlwaysAllow; a test of RBAC passes ['RBAC']. */
  readonly authorizationModes?: readonly string[];
  /** More kube-apiserver flags. */
  readonly flags?: readonly string[];
}

/** The user kapi's admin token authenticates as (authn/admin.ts), so both servers record the same managers and users. */
const ADMIN = { name: 'kapi-admin', group: 'system:masters' };
/** A guard against a hang, not a timing assertion: a loaded 2-core machine needs ~20 s. */
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 20_000;
const LOG_TAIL = 8000;

/** Writes the serving pair, token file and service account key kube-apiserver reads. */
async function writeFiles(dir: string, token: string): Promise<{ ca: string; flags: string[] }> {
  const ca = await newSelfSignedCACert({ commonName: 'kapi-oracle-ca', validityDays: 7 });
  const serving = await newSignedCert(ca, {
    commonName: 'kube-apiserver', hosts: ['localhost', 'kubernetes', 'kubernetes.default'], ips: ['127.0.0.1'],
    usages: ['serverAuth'], validityDays: 7,
  });
  // ES256, as kapi signs its service account tokens.
  const sa = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const files = {
    cert: join(dir, 'serving.crt'), key: join(dir, 'serving.key'), tokens: join(dir, 'tokens.csv'),
    saKey: join(dir, 'sa.key'), saPub: join(dir, 'sa.pub'),
  };
  await writeFile(files.cert, serving.cert);
  await writeFile(files.key, serving.key, { mode: 0o600 });
  await writeFile(files.tokens, `${token},${ADMIN.name},,"${ADMIN.group}"\n`, { mode: 0o600 });
  await writeFile(files.saKey, sa.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await writeFile(files.saPub, sa.publicKey.export({ type: 'spki', format: 'pem' }));
  return {
    ca: ca.cert,
    flags: [
      '--tls-cert-file', files.cert, '--tls-private-key-file', files.key, '--token-auth-file', files.tokens,
      '--service-account-key-file', files.saPub, '--service-account-signing-key-file', files.saKey,
    ],
  };
}

async function waitReady(creds: AdminCredentials, proc: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  // /readyz says the server serves; the default namespace says the bootstrap controller ran too,
  // as it has by the time kapi's start resolves.
  const probes = ['/readyz', '/api/v1/namespaces/default'];
  for (const path of probes) {
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`kube-apiserver exited during start-up:\n${log()}`);
      const r = await rawRequest(creds, { method: 'GET', path }).catch(() => undefined);
      if (r?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`kube-apiserver: ${path} not 200 within ${READY_TIMEOUT_MS} ms:\n${log()}`);
      await sleep(200);
    }
  }
}

/**
 * Starts etcd and the cached kube-apiserver with kapi's defaults (authorization AlwaysAllow, the
 * default admission plugins, --service-cluster-ip-range 10.0.0.0/24, kapi's service account
 * issuer, an admin token for kapi-admin in system:masters) and resolves once it is ready.
 * Rejects when the build is not cached (see oracleUnavailable) or kube-apiserver does not start.
 */
export async function startOracle(opts: StartOracleOptions = {}): Promise<Oracle> {
  const build = oracleBuildLocation();
  const missing = oracleUnavailable();
  if (missing !== undefined) throw new Error(missing);
  const dir = await mkdtemp(join(tmpdir(), 'kapi-oracle-'));
  let etcd: EtcdServer | undefined;
  let proc: ChildProcess | undefined;
  let log = '';
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const p = proc;
      if (p !== undefined && p.exitCode === null && p.signalCode === null) {
        p.kill('SIGTERM');
        const timer = setTimeout(() => p.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited(p);
        clearTimeout(timer);
      }
      await etcd?.stop();
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
  try {
    etcd = await startEtcd({ name: 'kapi-oracle-etcd' });
    const token = randomBytes(32).toString('base64url');
    const files = await writeFiles(dir, token);
    const port = await freePort();
    const args = [
      '--etcd-servers', etcd.endpoint, '--bind-address', '127.0.0.1', '--secure-port', String(port),
      '--cert-dir', join(dir, 'certs'), ...files.flags,
      '--service-account-issuer', DEFAULT_SERVICE_ACCOUNT_ISSUER,
      '--authorization-mode', (opts.authorizationModes ?? ['AlwaysAllow']).join(','),
      '--service-cluster-ip-range', '10.0.0.0/24',
      ...(opts.flags ?? []),
    ];
    const p = spawn(build.kubeApiserver, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    const keep = (chunk: Buffer): void => { log = (log + chunk.toString()).slice(-LOG_TAIL); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    p.once('error', (err) => { log += `\nspawn: ${err.message}`; });
    const creds: AdminCredentials = { server: serverURL('127.0.0.1', port), ca: files.ca, token };
    await waitReady(creds, p, () => log);
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeAdminKubeconfig(kubeconfigPath, { server: creds.server, caCert: creds.ca, token, clusterName: 'oracle' });
    return {
      creds, kubeconfigPath, version: build.version, etcd,
      request: (req) => rawRequest(creds, req),
      logTail: () => log,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
