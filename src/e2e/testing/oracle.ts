// The oracle: the reference kube-apiserver (built from Go modules by scripts/build-oracle.sh) on
// its own etcd (the one that script builds too, else Debian's, see src/oracle/etcd.ts), started the
// way kapi starts by default, for the differential tests. The binaries are never built here: a
// machine without the cached build gets a reason to skip.
// No Go counterpart: the e2e test harness.
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { serverURL, writeAdminKubeconfig } from '../../cli/kubeconfig.ts';
import { startOracleEtcd, type OracleEtcd } from '../../oracle/etcd.ts';
import { spawnKubeApiserver, type KubeApiserverOptions, type KubeApiserverProcess } from '../../oracle/kube-apiserver.ts';
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
  /** Its etcd; `etcd.version` is `system` when it is Debian's (no watch progress requests). */
  readonly etcd: OracleEtcd;
  request(req: RawRequest): Promise<RawResponse>;
  /** The last lines kube-apiserver logged (for failure messages). */
  logTail(): string;
  /** Stops kube-apiserver, then etcd, and removes the files. Idempotent. */
  stop(): Promise<void>;
}

export type StartOracleOptions = KubeApiserverOptions;

/** A guard against a hang, not a timing assertion: a loaded 2-core machine needs ~20 s. */
const READY_TIMEOUT_MS = 180_000;

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
  const etcd = await startOracleEtcd('kapi-oracle-etcd');
  let kube: KubeApiserverProcess | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= (async () => {
    await kube?.stop();
    await etcd.stop();
  })());
  try {
    kube = await spawnKubeApiserver(build.kubeApiserver, etcd.endpoint, opts);
    const { token, logTail } = kube;
    const creds: AdminCredentials = { server: serverURL(kube.host, kube.port), ca: kube.ca, token };
    await waitReady(creds, kube.process, logTail);
    const kubeconfigPath = join(kube.dir, 'kubeconfig');
    await writeAdminKubeconfig(kubeconfigPath, { server: creds.server, caCert: creds.ca, token, clusterName: 'oracle' });
    return {
      creds, kubeconfigPath, version: build.version, etcd,
      request: (req) => rawRequest(creds, req),
      logTail,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
