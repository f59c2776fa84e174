// The bench's reference: the oracle kube-apiserver (built by scripts/build-oracle.sh, never here)
// on its own etcd (the oracle's etcd build when there is one, see src/oracle/etcd.ts), started as
// envtest starts them: etcd first, then kube-apiserver, ready when /readyz answers 200, with the
// flags the differential tests use (src/oracle/kube-apiserver.ts).
// No Go counterpart: the bench.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startOracleEtcd } from '../oracle/etcd.ts';
import { spawnKubeApiserver, type KubeApiserverProcess } from '../oracle/kube-apiserver.ts';
import { waitReadyz, waitStatus200 } from './readyz.ts';

/** From src/bench or dist/bench alike. */
const BUILD_SCRIPT = fileURLToPath(new URL('../../scripts/build-oracle.sh', import.meta.url));
const READY_TIMEOUT_MS = 180_000;

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
  /** ms from spawning etcd to kube-apiserver's first /readyz 200 (its certificates made meanwhile, as kapi's are). */
  readonly startupMs: number;
  /** Stops kube-apiserver, then etcd, and removes the files. Idempotent. */
  stop(): Promise<void>;
}

/** Starts etcd and kube-apiserver from the build in `oracleDir`; resolves once /readyz is 200. */
export async function startKubeApiserver(oracleDir: string): Promise<KubeApiserver> {
  const start = performance.now();
  const etcd = await startOracleEtcd('kapi-bench-kube-etcd');
  let kube: KubeApiserverProcess | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= (async () => {
    await kube?.stop();
    await etcd.stop();
  })());
  try {
    kube = await spawnKubeApiserver(join(oracleDir, 'kube-apiserver'), etcd.endpoint);
    const { process: p, token } = kube;
    const url = `https://${kube.host}:${kube.port}`;
    const logTail = kube.logTail;
    const describe = (): string => `kube-apiserver:\n${logTail()}`;
    await waitReadyz(url, token, p, READY_TIMEOUT_MS, describe);
    const startupMs = performance.now() - start;
    // The bench writes into `default`, which the bootstrap controller creates just after /readyz.
    await waitStatus200(url, '/api/v1/namespaces/default', p, READY_TIMEOUT_MS, describe, { authorization: `Bearer ${token}` });
    return { url, ca: kube.ca, token, startupMs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
