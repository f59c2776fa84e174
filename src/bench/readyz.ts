// Polls a server until a path answers 200, as envtest waits for a control plane it started: the
// start-up figures end at the first /readyz 200. With a bearer token (AlwaysAllow turns anonymous
// requests off, in kube-apiserver as in kapi), without checking the certificate, which may not
// exist yet when polling begins.
// No Go counterpart: the bench.
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';

/** The poll interval: short, so it adds little to the start-up figures (the same for every server). */
const POLL_MS = 25;

/** The status of GET url+path (0 when the connection fails). */
export function probe(url: string, path: string, headers: Readonly<Record<string, string>> = {}): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { rejectUnauthorized: false, agent: false, timeout: 2000, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Resolves once GET url+path is 200; rejects when `proc` exits first or after timeoutMs. */
export async function waitStatus200(url: string, path: string, proc: ChildProcess, timeoutMs: number,
  describe: () => string, headers?: Readonly<Record<string, string>>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`exited during start-up: ${describe()}`);
    if (await probe(url, path, headers) === 200) return;
    if (Date.now() > deadline) throw new Error(`${path} not 200 within ${timeoutMs} ms: ${describe()}`);
    await sleep(POLL_MS);
  }
}

export function waitReadyz(url: string, token: string, proc: ChildProcess, timeoutMs: number,
  describe: () => string): Promise<void> {
  return waitStatus200(url, '/readyz', proc, timeoutMs, describe, { authorization: `Bearer ${token}` });
}
