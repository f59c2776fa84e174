// Serves the OpenAPI documents from a tiny stub server (version + legacy discovery for core/v1
// configmaps and pods) and checks that the real kubectl can explain resources from them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OpenAPIService } from './service.ts';
import type { ServedResource } from './served.ts';

const run = promisify(execFile);
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const served: ServedResource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: VERBS },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, verbs: VERBS, deleteReturnsObject: true,
    subresources: [{ name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] }] },
];

const stubDocs: Record<string, unknown> = {
  '/version': { major: '1', minor: '36', gitVersion: 'v1.36.0', gitCommit: '', gitTreeState: 'clean', buildDate: '2026-04-22T00:00:00Z',
    goVersion: 'go1.25', compiler: 'gc', platform: 'linux/amd64' },
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
  '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [
    { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: VERBS, shortNames: ['cm'] },
    { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: VERBS, shortNames: ['po'], categories: ['all'] },
    { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  ] },
};

async function startStub(svc: OpenAPIService): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => void (async () => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const r = await svc.handle({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams,
      accept: req.headers.accept, ifNoneMatch: req.headers['if-none-match'] });
    if (r !== undefined) {
      res.writeHead(r.status, r.headers);
      res.end(r.body);
      return;
    }
    const doc = stubDocs[url.pathname.replace(/\/+$/, '')];
    if (doc === undefined) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(doc));
  })());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('kubectl explain works from the served OpenAPI v3 documents', async () => {
  const svc = new OpenAPIService(served);
  const { server, url } = await startStub(svc);
  const home = await mkdtemp(join(tmpdir(), 'kapi-openapi-'));
  try {
    const kubeconfig = join(home, 'config');
    await writeFile(kubeconfig, [
      'apiVersion: v1', 'kind: Config', 'current-context: stub',
      'clusters:', '- name: stub', '  cluster:', `    server: ${url}`,
      'contexts:', '- name: stub', '  context:', '    cluster: stub', '    user: stub',
      'users:', '- name: stub', '  user:', '    token: x', '',
    ].join('\n'));
    const env = { ...process.env, HOME: home, KUBECONFIG: kubeconfig };
    const kubectl = (...args: string[]) => run('kubectl', args, { env, timeout: 60_000 });

    const cm = await kubectl('explain', 'configmaps');
    assert.match(cm.stdout, /KIND:\s+ConfigMap/);
    assert.match(cm.stdout, /VERSION:\s+v1/);
    assert.match(cm.stdout, /binaryData\s+<map\[string\]string>/);
    assert.match(cm.stdout, /immutable\s+<boolean>/);

    const containers = await kubectl('explain', 'pods.spec.containers');
    assert.match(containers.stdout, /FIELD: containers <\[\]Container>/);
    assert.match(containers.stdout, /name\s+<string> -required-/);
    assert.match(containers.stdout, /ports\s+<\[\]ContainerPort>/);

    const recursive = await kubectl('explain', 'pods.spec.containers.ports', '--recursive');
    assert.match(recursive.stdout, /containerPort\s+<integer> -required-/);
  } finally {
    server.close();
    await rm(home, { recursive: true, force: true });
  }
});
