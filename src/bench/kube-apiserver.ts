// The bench's reference: the oracle kube-apiserver (built by scripts/build-oracle.sh, never here)
// on its own etcd, started as envtest starts them: etcd first, then kube-apiserver, ready when
// /readyz answers 200. The bench cannot import src/e2e/testing/oracle.ts (same layer), so this is
// its own lean equivalent with the same flags (kapi's defaults: AlwaysAllow, the default
// admission plugins, kapi's service account issuer, an admin token in system:masters).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { newSelfSignedCACert, newSignedCert } from '../apimachinery/util/cert.ts';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../authn/serviceaccount/issuer.ts';
import { exited, freePort, startLocalEtcd, type LocalEtcd } from '../storage/etcd3/local-etcd.ts';
import { waitReadyz, waitStatus200 } from './readyz.ts';

/** From src/bench or dist/bench alike. */
const BUILD_SCRIPT = fileURLToPath(new URL('../../scripts/build-oracle.sh', import.meta.url));
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 20_000;
const LOG_TAIL = 8000;

/** The folder of the cached oracle build, or undefined when it is not built (build-oracle.sh --print). */
export function cachedOracleDir(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(BUILD_SCRIPT, ['--print'], (err, stdout) => {
      const dir = stdout.trim();
      resolve(err === null && dir !== '' ? dir : undefined);
    });
  });
}

export interface KubeApiserver {
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  /** ms from spawning etcd to kube-apiserver's first /readyz 200 (the files are written before). */
  readonly startupMs: number;
  /** Stops kube-apiserver, then etcd, and removes the files. Idempotent. */
  stop(): Promise<void>;
}

/** The serving pair, token file and service account keys kube-apiserver reads; returns its flags. */
async function writeFiles(dir: string, token: string): Promise<{ ca: string; flags: string[] }> {
  const ca = await newSelfSignedCACert({ commonName: 'kapi-bench-kube-ca', validityDays: 7 });
  const serving = await newSignedCert(ca, {
    commonName: 'kube-apiserver', hosts: ['localhost'], ips: ['127.0.0.1'], usages: ['serverAuth'], validityDays: 7,
  });
  const sa = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const f = (name: string): string => join(dir, name);
  await writeFile(f('serving.crt'), serving.cert);
  await writeFile(f('serving.key'), serving.key, { mode: 0o600 });
  // kapi's admin identity (authn/admin.ts), as the differential tests use.
  await writeFile(f('tokens.csv'), `${token},kapi-admin,,"system:masters"\n`, { mode: 0o600 });
  await writeFile(f('sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await writeFile(f('sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
  return {
    ca: ca.cert,
    flags: [
      '--tls-cert-file', f('serving.crt'), '--tls-private-key-file', f('serving.key'), '--token-auth-file', f('tokens.csv'),
      '--service-account-key-file', f('sa.pub'), '--service-account-signing-key-file', f('sa.key'),
      '--cert-dir', f('certs'),
    ],
  };
}

/** Starts etcd and kube-apiserver from the build in `oracleDir`; resolves once /readyz is 200. */
export async function startKubeApiserver(oracleDir: string): Promise<KubeApiserver> {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-bench-kube-'));
  let etcd: LocalEtcd | undefined;
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
    const token = randomBytes(32).toString('base64url');
    const files = await writeFiles(dir, token);
    const port = await freePort();
    const start = performance.now();
    etcd = await startLocalEtcd({ name: 'kapi-bench-kube-etcd' });
    const p = spawn(join(oracleDir, 'kube-apiserver'), [
      '--etcd-servers', etcd.endpoint, '--bind-address', '127.0.0.1', '--secure-port', String(port), ...files.flags,
      '--service-account-issuer', DEFAULT_SERVICE_ACCOUNT_ISSUER, '--authorization-mode', 'AlwaysAllow',
      '--service-cluster-ip-range', '10.0.0.0/24',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    const keep = (chunk: Buffer): void => { log = (log + chunk.toString()).slice(-LOG_TAIL); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    p.once('error', (err) => { log += `\nspawn: ${err.message}`; });
    const url = `https://127.0.0.1:${port}`;
    const describe = (): string => `kube-apiserver:\n${log}`;
    await waitReadyz(url, token, p, READY_TIMEOUT_MS, describe);
    const startupMs = performance.now() - start;
    // The bench writes into `default`, which the bootstrap controller creates just after /readyz.
    await waitStatus200(url, '/api/v1/namespaces/default', p, READY_TIMEOUT_MS, describe, { authorization: `Bearer ${token}` });
    return { url, ca: files.ca, token, startupMs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
