// The reference kube-apiserver (built from Go modules by scripts/build-oracle.sh, never here)
// started with kapi's defaults: AlwaysAllow, the default admission plugins, kapi's service
// account issuer (ES256 keys, as kapi signs), --service-cluster-ip-range 10.0.0.0/24 and an admin
// token for kapi's admin user. Shared by the differential tests (src/e2e) and the bench, which
// each decide how to wait for it and which etcd it talks to.
// No Go counterpart: the oracle, for the differential tests and the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSelfSignedCACert, newSignedCert } from '../apimachinery/util/cert.ts';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../authn/serviceaccount/issuer.ts';
import { exited, freePort } from '../storage/etcd3/local-etcd.ts';

/** The user kapi's admin token authenticates as (authn/admin.ts), so both servers record the same managers and users. */
const ADMIN = { name: 'kapi-admin', group: 'system:masters' };
const STOP_TIMEOUT_MS = 20_000;
const LOG_TAIL = 8000;

export interface KubeApiserverOptions {
  /** kapi's default is AlwaysAllow; a test of RBAC passes ['RBAC']; [] passes no --authorization-mode. */
  readonly authorizationModes?: readonly string[];
  /** More kube-apiserver flags. */
  readonly flags?: readonly string[];
}

export interface KubeApiserverProcess {
  readonly process: ChildProcess;
  readonly host: string;
  readonly port: number;
  /** The serving CA (PEM). */
  readonly ca: string;
  /** The admin bearer token. */
  readonly token: string;
  /** The folder of its files (certificates, token file, keys); stop() removes it. */
  readonly dir: string;
  /** The last lines kube-apiserver logged (for failure messages). */
  logTail(): string;
  /** Stops kube-apiserver (SIGTERM, then SIGKILL) and removes its files. Idempotent. */
  stop(): Promise<void>;
}

/** Writes the serving pair, token file and service account keys kube-apiserver reads; returns their flags. */
async function writeFiles(dir: string, token: string): Promise<{ ca: string; flags: string[] }> {
  const ca = await newSelfSignedCACert({ commonName: 'kapi-oracle-ca', validityDays: 7 });
  const serving = await newSignedCert(ca, {
    commonName: 'kube-apiserver', hosts: ['localhost', 'kubernetes', 'kubernetes.default'], ips: ['127.0.0.1'],
    usages: ['serverAuth'], validityDays: 7,
  });
  const sa = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const f = (name: string): string => join(dir, name);
  await writeFile(f('serving.crt'), serving.cert);
  await writeFile(f('serving.key'), serving.key, { mode: 0o600 });
  await writeFile(f('tokens.csv'), `${token},${ADMIN.name},,"${ADMIN.group}"\n`, { mode: 0o600 });
  await writeFile(f('sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await writeFile(f('sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
  return {
    ca: ca.cert,
    flags: [
      '--tls-cert-file', f('serving.crt'), '--tls-private-key-file', f('serving.key'), '--token-auth-file', f('tokens.csv'),
      '--service-account-key-file', f('sa.pub'), '--service-account-signing-key-file', f('sa.key'), '--cert-dir', f('certs'),
    ],
  };
}

/**
 * Writes kube-apiserver's files and spawns `binary` on `etcdEndpoint` at a free loopback port.
 * Resolves at once: readiness is the caller's to wait for (kube-apiserver may still exit).
 */
export async function spawnKubeApiserver(binary: string, etcdEndpoint: string, opts: KubeApiserverOptions = {}): Promise<KubeApiserverProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-oracle-'));
  try {
    const token = randomBytes(32).toString('base64url');
    const files = await writeFiles(dir, token);
    const port = await freePort();
    const p = spawn(binary, [
      '--etcd-servers', etcdEndpoint, '--bind-address', '127.0.0.1', '--secure-port', String(port), ...files.flags,
      '--service-account-issuer', DEFAULT_SERVICE_ACCOUNT_ISSUER,
      // [] gives no --authorization-mode (a test that passes --authorization-config).
      ...((opts.authorizationModes ?? ['AlwaysAllow']).length > 0 ? ['--authorization-mode', (opts.authorizationModes ?? ['AlwaysAllow']).join(',')] : []),
      '--service-cluster-ip-range', '10.0.0.0/24',
      ...(opts.flags ?? []),
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const keep = (chunk: Buffer): void => { log = (log + chunk.toString()).slice(-LOG_TAIL); };
    p.stdout?.on('data', keep);
    p.stderr?.on('data', keep);
    p.once('error', (err) => { log += `\nspawn: ${err.message}`; });
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        if (p.exitCode === null && p.signalCode === null) {
          p.kill('SIGTERM');
          const timer = setTimeout(() => p.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited(p);
          clearTimeout(timer);
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    };
    return { process: p, host: '127.0.0.1', port, ca: files.ca, token, dir, logTail: () => log, stop };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
