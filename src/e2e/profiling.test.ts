// --profiling, /debug/flags/v and --debug-socket-path as kube-apiserver serves them (answers checked
// against kube-apiserver v1.36.3: redirect, index, "Unknown profile", the flag handler's texts),
// with Node's CPU and heap profiles in pprof format, read back by `go tool pprof` when Go is there.
// No Go counterpart: the e2e test harness (behaviour of routes/profiling.go, routes/flags.go,
// routes/debugsocket.go and net/http/pprof).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { startServer, type RunningServer } from '../cli/serve.ts';
import { loadAdminCredentials, rawRequest, type AdminCredentials } from './testing/https-client.ts';

function goAvailable(): boolean {
  try { execFileSync('go', ['version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** `go tool pprof -raw` of a profile: its sample types and stacks as text. */
async function pprofRaw(body: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kapi-pprof-'));
  try {
    const f = join(dir, 'profile.pb.gz');
    await writeFile(f, body);
    const { stdout } = await promisify(execFile)('go', ['tool', 'pprof', '-raw', f], { env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' } });
    return stdout;
  } finally { await rm(dir, { recursive: true, force: true }); }
}

describe('--profiling (default true)', () => {
  let server: RunningServer;
  let creds: AdminCredentials;
  before(async () => {
    server = await startServer();
    creds = await loadAdminCredentials(server.kubeconfigPath);
  });
  after(async () => { await server.close(); });

  const cases: { name: string; method: string; path: string; body?: string; status: number; type?: string; text?: string; headers?: Record<string, string> }[] = [
    { name: 'the bare path redirects', method: 'GET', path: '/debug/pprof', status: 302, text: '<a href="/debug/pprof/">Found</a>.\n\n', headers: { location: '/debug/pprof/' } },
    { name: 'the index', method: 'GET', path: '/debug/pprof/', status: 200, type: 'text/html; charset=utf-8' },
    { name: 'an unknown profile', method: 'GET', path: '/debug/pprof/nosuch', status: 404, text: 'Unknown profile\n', headers: { 'x-go-pprof': '1' } },
    { name: "Go's goroutine profile: none in Node", method: 'GET', path: '/debug/pprof/goroutine?debug=2', status: 404, text: 'Unknown profile\n' },
    { name: 'cmdline is unknown in kube too', method: 'GET', path: '/debug/pprof/cmdline', status: 404, text: 'Unknown profile\n' },
    { name: 'the flags index', method: 'GET', path: '/debug/flags', status: 200, type: 'text/html; charset=utf-8' },
    { name: 'the flags index under another name', method: 'GET', path: '/debug/flags/x', status: 200, type: 'text/html; charset=utf-8' },
    { name: 'reading -v is refused', method: 'GET', path: '/debug/flags/v', status: 406, text: 'unsupported http method\n', type: 'text/plain' },
    { name: 'setting -v', method: 'PUT', path: '/debug/flags/v', body: '2', status: 200, text: 'successfully set klog.logging.verbosity to 2\n' },
    { name: 'a bad -v', method: 'PUT', path: '/debug/flags/v', body: 'abc', status: 400, text: 'strconv.ParseUint: parsing "abc": invalid syntax\n' },
    { name: 'an empty -v', method: 'PUT', path: '/debug/flags/v', body: '', status: 400, text: 'strconv.ParseUint: parsing "": invalid syntax\n' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await rawRequest(creds, { method: c.method, path: c.path, ...(c.body !== undefined ? { body: c.body, contentType: 'text/plain' } : {}) });
      assert.equal(r.status, c.status, r.text);
      if (c.text !== undefined) assert.equal(r.text, c.text);
      if (c.type !== undefined) assert.equal(r.headers['content-type'], c.type);
      for (const [k, v] of Object.entries(c.headers ?? {})) assert.equal(r.headers[k], v, k);
    });
  }

  it('does not list the debug paths in GET /', async () => {
    const r = await rawRequest(creds, { method: 'GET', path: '/' });
    assert.equal(r.status, 200);
    assert.doesNotMatch(r.text, /debug/);
  });

  const profiles: { name: string; path: string; file: string; types: RegExp }[] = [
    { name: 'a CPU profile of the given seconds', path: '/debug/pprof/profile?seconds=1', file: 'profile', types: /samples\/count cpu\/nanoseconds/ },
    { name: 'the heap profile', path: '/debug/pprof/heap?gc=1', file: 'heap', types: /inuse_objects\/count inuse_space\/bytes/ },
  ];
  for (const p of profiles) {
    it(`${p.name}, in pprof format`, async (t) => {
      const r = await rawRequest(creds, { method: 'GET', path: p.path });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers['content-type'], 'application/octet-stream');
      assert.equal(r.headers['content-disposition'], `attachment; filename="${p.file}"`);
      assert.ok(gunzipSync(r.body).length > 0);
      if (!goAvailable()) { t.diagnostic('go is not on PATH: the profile is not read back with go tool pprof'); return; }
      assert.match(await pprofRaw(r.body), p.types);
    });
  }

  it('takes one CPU profile at a time', async () => {
    const first = rawRequest(creds, { method: 'GET', path: '/debug/pprof/profile?seconds=2' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = await rawRequest(creds, { method: 'GET', path: '/debug/pprof/profile?seconds=1' });
    assert.equal(second.status, 500);
    assert.equal(second.text, 'Could not enable CPU profiling: cpu profiling already in use\n');
    assert.equal((await first).status, 200);
  });
});

describe('--profiling=false and --debug-socket-path', () => {
  let server: RunningServer;
  let creds: AdminCredentials;
  let dir: string;
  let socket: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-debug-'));
    socket = join(dir, 'debug.sock');
    await writeFile(socket, 'stale');
    server = await startServer({ flags: ['--profiling=false', '--debug-socket-path', socket] });
    creds = await loadAdminCredentials(server.kubeconfigPath);
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const path of ['/debug/pprof/', '/debug/pprof/profile', '/debug/flags/v']) {
    it(`${path} is not served on the secure port`, async () => {
      const r = await rawRequest(creds, { method: 'GET', path });
      assert.equal(r.status, 404);
    });
  }

  const onSocket = (method: string, path: string, body?: string): Promise<{ status: number; text: string }> => new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath: socket, method, path }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });

  const cases: { name: string; method: string; path: string; body?: string; status: number; text?: string }[] = [
    { name: 'sets -v without credentials', method: 'PUT', path: '/debug/flags/v', body: '4', status: 200, text: 'successfully set klog.logging.verbosity to 4\n' },
    { name: 'an unknown profile', method: 'GET', path: '/debug/pprof/nosuch', status: 404, text: 'Unknown profile\n' },
    { name: 'the heap profile', method: 'GET', path: '/debug/pprof/heap', status: 200 },
    { name: 'nothing else', method: 'GET', path: '/api', status: 404, text: '404 page not found\n' },
  ];
  for (const c of cases) {
    it(`the socket: ${c.name}`, async () => {
      const r = await onSocket(c.method, c.path, c.body);
      assert.equal(r.status, c.status, r.text);
      if (c.text !== undefined) assert.equal(r.text, c.text);
    });
  }
});
