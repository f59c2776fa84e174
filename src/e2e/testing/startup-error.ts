// The error kube-apiserver v1.36.3 stops with at start-up for a set of flags: the oracle binary is
// run against an etcd that is not there (options are validated and the authenticators and
// authorizers built before storage is reached), and klog's `"command failed" err=...` line is
// read back into the message. No Go counterpart: a test helper.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../storage/etcd3/local-etcd.ts';
import { oracleBuildLocation } from './oracle.ts';

/** A guard against a flag set kube accepts (it then waits for etcd), not a timing assertion. */
const GUARD_MS = 15_000;

/** klog's err value: a Go-quoted string, or a block `<\n\t...\n >` of tab-indented lines. */
export function klogErr(log: string): string | undefined {
  const block = /"command failed" err=<\n((?:\t.*\n)*) >/.exec(log);
  if (block !== null) return (block[1] ?? '').split('\n').filter((l) => l !== '').map((l) => l.slice(1)).join('\n');
  const line = /"command failed" err=("(?:[^"\\]|\\.)*")/.exec(log);
  return line === null ? undefined : JSON.parse(line[1] ?? '""') as string;
}

/** Runs kube-apiserver with `flags` (after valid service account and serving flags); resolves to its start-up error, or undefined when it got past them. */
export async function kubeStartupError(flags: readonly string[]): Promise<string | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-startup-'));
  try {
    const sa = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    await writeFile(join(dir, 'sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(dir, 'sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
    const p = spawn(oracleBuildLocation().kubeApiserver, [
      '--etcd-servers', 'http://127.0.0.1:1', '--service-cluster-ip-range', '10.0.0.0/24', '--cert-dir', join(dir, 'certs'),
      '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()), '--service-account-issuer', 'https://kubernetes.default.svc.cluster.local',
      '--service-account-key-file', join(dir, 'sa.pub'), '--service-account-signing-key-file', join(dir, 'sa.key'), ...flags,
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    return await new Promise((resolve) => {
      const done = (v: string | undefined): void => { clearTimeout(timer); p.kill('SIGKILL'); resolve(v); };
      const timer = setTimeout(() => done(undefined), GUARD_MS);
      const read = (c: Buffer): void => {
        log += c.toString();
        const err = klogErr(log);
        if (err !== undefined) done(err);
      };
      p.stdout.on('data', read);
      p.stderr.on('data', read);
      p.once('exit', () => done(klogErr(log)));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
