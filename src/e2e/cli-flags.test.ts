// `kapi serve` flags that kapi parses either take effect as in kube-apiserver or stop start-up
// with a message naming them: admission plugins kapi lacks, two service ranges of one family, bad
// values. --shutdown-delay-duration keeps serving with /readyz failing after SIGTERM, and -v 3
// logs every request as kube's httplog does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdminCredentials, rawRequest } from './testing/https-client.ts';
import { eventually, KAPI_COMMAND, REPO_ROOT, startCliServer } from './testing/suite.ts';

/** Runs `kapi serve` with `flags`; resolves with its exit code and stderr (it must not start). */
function runServe(flags: readonly string[], dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const [node = process.execPath, ...args] = KAPI_COMMAND;
  const child = spawn(node, [...args, 'serve', '--secure-port', '0', '--data-dir', dataDir, ...flags], { cwd: REPO_ROOT });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  child.stdout.resume();
  // A guard against a server that started after all, not a timing assertion.
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('exit', (code) => { clearTimeout(guard); resolve({ code, stderr }); }));
}

describe('kapi serve refuses flags it would ignore', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-cli-flags-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const cases = [
    { name: 'an admission plugin kube has and kapi lacks', flags: ['--enable-admission-plugins=NamespaceLifecycle,ImagePolicyWebhook'],
      want: 'enable-admission-plugins plugin "ImagePolicyWebhook" is not supported by kapi' },
    { name: 'an admission plugin nobody has (kube\'s message)', flags: ['--enable-admission-plugins=Foo'],
      want: 'enable-admission-plugins plugin "Foo" is unknown' },
    { name: 'an unknown plugin to disable (kube\'s message)', flags: ['--disable-admission-plugins=Bar'],
      want: 'disable-admission-plugins plugin "Bar" is unknown' },
    { name: 'two service ranges of one family (kube\'s message)', flags: ['--service-cluster-ip-range=10.96.0.0/16,10.97.0.0/16'],
      want: '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family' },
    { name: 'an IPv6 service range with an IPv4 advertise address (kube\'s message)', flags: ['--service-cluster-ip-range=fd00::/108', '--advertise-address=192.0.2.2'],
      want: 'service IP family "fd00::/108" must match public address family "192.0.2.2"' },
    { name: 'a negative shutdown delay', flags: ['--shutdown-delay-duration=-1s'], want: '--shutdown-delay-duration can not be negative value' },
    { name: 'a watch cache size that is no number (kube\'s message)', flags: ['--watch-cache-sizes=configmaps#x'],
      want: 'invalid size of watch cache size: configmaps#x' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const dataDir = join(dir, c.name.replace(/\W+/g, '-'));
      const r = await runServe(c.flags, dataDir);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, `Error: ${c.want}\n`);
      // Refused before anything was written.
      assert.equal(existsSync(dataDir), false);
    });
  }
});

describe('--admission-control-config-file', () => {
  let dir: string;
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'kapi-cli-admission-config-')); });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  const cases = [
    { name: 'a missing file (kube\'s message)', file: () => join(dir, 'missing.yaml'),
      want: (f: string) => `failed to apply admission: failed to read plugin config: unable to read admission control configuration from "${f}" [open ${f}: no such file or directory]` },
    { name: 'a file of the wrong kind (kube\'s message)', file: () => join(dir, 'kind.yaml'), text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n',
      want: () => 'failed to apply admission: failed to read plugin config: unexpected type: *apiserver.TracingConfiguration' },
    { name: 'a plugin configuration the plugin refuses (kube\'s message)', file: () => join(dir, 'ptr.yaml'),
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodTolerationRestriction\n  configuration:\n    apiVersion: v1\n    kind: Pod\n',
      flags: ['--enable-admission-plugins=PodTolerationRestriction'],
      want: () => 'failed to apply admission: couldn\'t init admission plugin "PodTolerationRestriction": no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"' },
    { name: 'invalid tolerations in a plugin configuration (kube\'s message)', file: () => join(dir, 'ptr-invalid.yaml'),
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodTolerationRestriction\n  configuration:\n' +
        '    apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\n    kind: Configuration\n    default:\n    - operator: Equal\n      value: x\n',
      flags: ['--enable-admission-plugins=PodTolerationRestriction'],
      want: () => 'failed to apply admission: couldn\'t init admission plugin "PodTolerationRestriction": invalid config: ' +
        '[podtolerationrestriction.default[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"]' },
  ];
  for (const c of cases) {
    it(`stops start-up for ${c.name}`, async () => {
      const f = c.file();
      if (c.text !== undefined) await writeFile(f, c.text);
      const r = await runServe(['--admission-control-config-file', f, ...c.flags ?? []], join(dir, c.name.replace(/\W+/g, '-')));
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('Error: ')).join('\n'), `Error: ${c.want(f)}`);
    });
  }
});

describe('--shutdown-delay-duration', () => {
  it('after SIGTERM the server keeps serving, /readyz fails, /healthz and /livez pass; then it exits cleanly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-shutdown-delay-'));
    try {
      // Long enough for the probes below on a loaded machine; the test then waits it out.
      const server = await startCliServer(dir, ['--shutdown-delay-duration=8s']);
      const creds = await loadAdminCredentials(server.kubeconfigPath);
      const get = (path: string) => rawRequest(creds, { method: 'GET', path });
      assert.equal((await get('/readyz')).status, 200);
      process.kill(server.pid, 'SIGTERM');
      const readyz = await eventually('/readyz to fail', async () => {
        const r = await get('/readyz?verbose');
        return r.status === 500 ? r : undefined;
      });
      assert.match(readyz.text, /\n\[-\]shutdown failed: reason withheld\n/);
      assert.match(readyz.text, /readyz check failed\n$/);
      assert.equal((await get('/healthz')).status, 200);
      assert.equal((await get('/livez')).status, 200);
      const list = await get('/api/v1/namespaces');
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(await server.exited(), { code: 0, signal: null });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('-v', () => {
  it('-v 3 logs each request as kube\'s httplog: verb, URI, user agent, audit ID, response code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-v3-'));
    try {
      const server = await startCliServer(dir, ['-v', '3']);
      try {
        const creds = await loadAdminCredentials(server.kubeconfigPath);
        const r = await rawRequest(creds, { method: 'GET', path: '/api/v1/namespaces?limit=1', headers: { 'User-Agent': 'e2e/1.0', 'Audit-ID': 'e2e-audit-1' } });
        assert.equal(r.status, 200);
        const line = await eventually('the request log line', () => Promise.resolve(
          server.stderr().split('\n').find((l) => l.includes('e2e-audit-1'))));
        assert.match(line, /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ httplog\.go:\d+\] "HTTP" verb="LIST" URI="\/api\/v1\/namespaces\?limit=1" latency="[\d.]+(ns|µs|ms|s)" userAgent="e2e\/1\.0" audit-ID="e2e-audit-1" srcIP="127\.0\.0\.1:\d+" resp=200$/);
      } finally {
        await server.stop('SIGTERM');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('below 3 logs no request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-v2-'));
    try {
      const server = await startCliServer(dir, ['-v', '2']);
      try {
        const creds = await loadAdminCredentials(server.kubeconfigPath);
        assert.equal((await rawRequest(creds, { method: 'GET', path: '/api', headers: { 'Audit-ID': 'e2e-audit-2' } })).status, 200);
      } finally {
        await server.stop('SIGTERM');
      }
      assert.doesNotMatch(server.stderr(), /"HTTP"/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('PUT /debug/flags/v changes it at run time, as kube\'s', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-v-put-'));
    try {
      const server = await startCliServer(dir, ['-v', '0']);
      try {
        const creds = await loadAdminCredentials(server.kubeconfigPath);
        assert.equal((await rawRequest(creds, { method: 'GET', path: '/api', headers: { 'Audit-ID': 'e2e-before-put' } })).status, 200);
        const put = await rawRequest(creds, { method: 'PUT', path: '/debug/flags/v', body: '3', contentType: 'text/plain' });
        assert.deepEqual([put.status, put.text], [200, 'successfully set klog.logging.verbosity to 3\n']);
        assert.equal((await rawRequest(creds, { method: 'GET', path: '/api', headers: { 'Audit-ID': 'e2e-after-put' } })).status, 200);
        await eventually('the request log line', () => Promise.resolve(server.stderr().split('\n').find((l) => l.includes('e2e-after-put'))));
        assert.doesNotMatch(server.stderr(), /e2e-before-put/);
      } finally {
        await server.stop('SIGTERM');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
