// Runs every colocated test file with node's test runner (TypeScript through tsx), then the
// end-to-end client tests a second time on the etcd3 backend (an etcd started by the tests).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.ts') || name.endsWith('.test.mjs')) out.push(p);
  }
  return out;
}

function run(files, env = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files],
    { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

if (process.argv.length > 2) process.exit(run(process.argv.slice(2)));

const all = [...find('src', []), ...find('scripts', [])].sort();
// The client e2e files that do not choose their backend themselves (etcd-*, persistence) or
// depend on it (discovery) run again on etcd. The differential suites, which compare kapi with
// the reference kube-apiserver when it is built, run on the embedded store only: their subject is
// kapi's API behaviour, which the backend does not change, and they are the longest files.
// rest-conformance runs a control plane in process on its own in-memory store.
const onEtcd = all.filter((f) => f.startsWith(join('src', 'e2e')) &&
  !/\/(etcd-[^/]*|persistence|discovery-reference|rest-conformance|[^/]*differential[^/]*)\.test\.ts$/.test(f));
const first = run(all);
const second = run(onEtcd, { KAPI_E2E_BACKEND: 'etcd3' });
process.exit(first !== 0 ? first : second);
