// Both directions against the real client: kubectl's imperative `create` commands send protobuf
// bodies and accept protobuf answers. A stub server decodes what kubectl sends and answers with
// the object encoded by encodeProtobuf; kubectl must then print its usual success line.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MEDIA_TYPE } from './index.ts';

interface Received { method: string; url: string; contentType: string; accept: string; obj: Record<string, unknown> }

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('kubectl create speaks protobuf with the codec', () => {
  let server: Server;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const received: Received[] = [];

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    if (req.url?.startsWith('/version') === true) {
      res.setHeader('Content-Type', 'application/json');
      res.end('{"major":"1","minor":"36","gitVersion":"v1.36.0"}');
      return;
    }
    if (req.method !== 'POST') {
      res.statusCode = 404;
      res.end();
      return;
    }
    const { obj } = decodeProtobuf(body);
    received.push({
      method: req.method, url: req.url ?? '', contentType: req.headers['content-type'] ?? '',
      accept: req.headers.accept ?? '', obj: structuredClone(obj),
    });
    const meta = (obj.metadata ?? {}) as Record<string, unknown>;
    obj.metadata = {
      ...meta, uid: '6f1c1a9e-1111-4222-8333-944455556666', resourceVersion: '42',
      creationTimestamp: '2026-01-02T03:04:05Z',
      ...(req.url?.includes('/namespaces/') === true ? { namespace: 'default' } : {}),
    };
    res.statusCode = 201;
    res.setHeader('Content-Type', PROTOBUF_MEDIA_TYPE);
    res.end(encodeProtobuf(obj));
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kapi-proto-kubectl-'));
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          handle(req, res, Buffer.concat(chunks));
        } catch (err) {
          res.statusCode = 500;
          res.end(String(err));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config',
      `clusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]`,
      'users: [{name: u, user: {}}]',
      'contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]',
      'current-context: x', '',
    ].join('\n'));
    env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), KUBECONFIG: kubeconfig };
  });

  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: { name: string; args: string[]; printed: string; url: string; want: Record<string, unknown> }[] = [
    {
      name: 'configmap', args: ['create', 'configmap', 'x', '--from-literal=a=b'], printed: 'configmap/x created',
      url: '/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict',
      want: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } },
    },
    {
      name: 'secret generic (bytes values)', args: ['create', 'secret', 'generic', 's', '--from-literal=a=b'],
      printed: 'secret/s created',
      url: '/api/v1/namespaces/default/secrets?fieldManager=kubectl-create&fieldValidation=Strict',
      want: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'Yg==' } },
    },
    {
      name: 'deployment', args: ['create', 'deployment', 'd', '--image=nginx'], printed: 'deployment.apps/d created',
      url: '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict',
      want: {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { app: 'd' } },
        spec: {
          replicas: 1, selector: { matchLabels: { app: 'd' } },
          template: {
            metadata: { labels: { app: 'd' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
          },
          strategy: {},
        },
        status: {},
      },
    },
    {
      name: 'namespace', args: ['create', 'namespace', 'n'], printed: 'namespace/n created',
      url: '/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict',
      want: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec: {}, status: {} },
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      received.length = 0;
      const out = await run(c.args, env);
      assert.equal(out.stderr, '');
      assert.equal(out.stdout.trim(), c.printed);
      assert.equal(out.code, 0);
      const post = received[0];
      assert.ok(post !== undefined, 'kubectl sent no POST');
      assert.equal(post.url, c.url);
      assert.equal(post.contentType, PROTOBUF_MEDIA_TYPE);
      assert.equal(post.accept, `${PROTOBUF_MEDIA_TYPE},application/json`);
      assert.deepEqual(post.obj, c.want);
    });
  }

  it('kubectl reads every field of the protobuf answer (-o json)', async () => {
    const out = await run(['create', 'configmap', 'j', '--from-literal=a=b', '-o', 'json'], env);
    assert.equal(out.stderr, '');
    assert.equal(out.code, 0);
    assert.deepEqual(JSON.parse(out.stdout), {
      apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' },
      metadata: {
        name: 'j', namespace: 'default', uid: '6f1c1a9e-1111-4222-8333-944455556666', resourceVersion: '42',
        creationTimestamp: '2026-01-02T03:04:05Z',
      },
    });
  });
});
