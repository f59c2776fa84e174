// The etcd the oracle kube-apiserver stores into. Debian's etcd 3.4.23 cannot answer watch progress
// requests, so kube-apiserver disables RequestWatchProgress on it: watches with sendInitialEvents
// answer 500 and its watch cache waits for writes to catch up. scripts/build-oracle.sh therefore
// also builds a current etcd from Go modules (oracle/etcd); this finds that build and falls back
// to the `etcd` on the PATH when it is missing. kapi's own etcd tests keep Debian's etcd.
// No Go counterpart: the oracle, for the differential tests and the bench.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalEtcd, type LocalEtcd } from '../storage/etcd3/local-etcd.ts';

/** From src/oracle or dist/oracle alike. */
const ETCD_MODULE = fileURLToPath(new URL('../../oracle/etcd/', import.meta.url));
/** The files whose hash names the build; keep in step with scripts/build-oracle.sh. */
const KEYED_FILES = ['go.mod', 'go.sum', 'main.go'];

export interface OracleEtcdBuild {
  /** The go.etcd.io/etcd/server/v3 version of oracle/etcd/go.mod, e.g. v3.6.16. */
  readonly version: string;
  readonly binary: string;
}

/** Where scripts/build-oracle.sh puts (or put) the etcd of the current oracle/etcd/go.mod. */
function oracleEtcdLocation(env: NodeJS.ProcessEnv = process.env): OracleEtcdBuild {
  const goMod = readFileSync(join(ETCD_MODULE, 'go.mod'), 'utf8');
  const version = /^\s*(?:require\s+)?go\.etcd\.io\/etcd\/server\/v3 (v\S+)/m.exec(goMod)?.[1];
  if (version === undefined) throw new Error('oracle/etcd/go.mod requires no go.etcd.io/etcd/server/v3 version');
  const hash = createHash('sha256');
  for (const f of KEYED_FILES) hash.update(readFileSync(join(ETCD_MODULE, f)));
  const cache = env['KAPI_ORACLE_CACHE'] ?? join(env['HOME'] ?? homedir(), '.cache', 'kapi-oracle');
  return { version, binary: join(cache, 'etcd', version, hash.digest('hex').slice(0, 16), 'etcd') };
}

/** The built etcd, or undefined when it is not built on this machine (then Debian's is used). */
export function builtOracleEtcd(env: NodeJS.ProcessEnv = process.env): OracleEtcdBuild | undefined {
  const b = oracleEtcdLocation(env);
  return existsSync(b.binary) ? b : undefined;
}

export interface OracleEtcd extends LocalEtcd {
  /** The built etcd's version, or `system` for the `etcd` on the PATH. */
  readonly version: string;
}

/** Starts the built etcd when there is one, else the `etcd` on the PATH; resolves once it is healthy. */
export async function startOracleEtcd(name: string): Promise<OracleEtcd> {
  const built = builtOracleEtcd();
  const etcd = await startLocalEtcd({ name, ...(built !== undefined ? { binary: built.binary } : {}) });
  return { ...etcd, version: built?.version ?? 'system' };
}
