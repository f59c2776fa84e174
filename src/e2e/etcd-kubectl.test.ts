// A representative kubectl session against kapi on etcd (the rest of the e2e suite runs on the
// embedded store unless KAPI_E2E_BACKEND=etcd3): create -f of a multi-document manifest, get -o json,
// label, patch, a stale replace, delete, get -w, and deleting a namespace with its contents.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columns, lines } from './testing/kubectl.ts';
import { configMapManifest, namespaceManifest } from './testing/manifests.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-etcd';

const MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: ${NS}
  labels:
    app: e2e
data:
  key: one
---
apiVersion: v1
kind: Secret
metadata:
  name: app-secret
  namespace: ${NS}
type: Opaque
data:
  password: aHVudGVyMg==
---
apiVersion: v1
kind: Service
metadata:
  name: app-svc
  namespace: ${NS}
spec:
  selector:
    app: e2e
  ports:
  - port: 80
    targetPort: 8080
`;

interface ConfigMapJSON {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

describe('kubectl against kapi on etcd', () => {
  let s: Suite;
  const get = async (name: string): Promise<ConfigMapJSON> => {
    const r = await s.kubectl(['get', 'cm', name, '-n', NS, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as ConfigMapJSON;
  };

  before(async () => {
    s = await startSuite({ backend: 'etcd3' });
    const r = await s.kubectl(['create', '-f', '-'], namespaceManifest(NS));
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => { await s?.close(); });

  it('create -f of a multi-document manifest, then get -o json', async () => {
    const r = await s.kubectl(['create', '-f', '-'], MANIFEST);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/app-config created\nsecret/app-secret created\nservice/app-svc created\n');
    const cm = await get('app-config');
    assert.equal(cm.apiVersion, 'v1');
    assert.equal(cm.kind, 'ConfigMap');
    assert.equal(cm.metadata.namespace, NS);
    assert.deepEqual(cm.metadata.labels, { app: 'e2e' });
    assert.deepEqual(cm.data, { key: 'one' });
    assert.match(cm.metadata.resourceVersion, /^[1-9][0-9]*$/, 'an etcd revision');
    assert.match(cm.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const all = await s.kubectl(['get', 'cm,secret,svc', '-n', NS, '-o', 'name']);
    assert.equal(all.code, 0, all.stderr);
    // kube-root-ca.crt is in every namespace, as kube-controller-manager's root-ca-cert-publisher makes it.
    assert.deepEqual(lines(all.stdout), ['configmap/app-config', 'configmap/kube-root-ca.crt', 'secret/app-secret', 'service/app-svc']);
  });

  it('label and patch --type merge', async () => {
    const before = (await get('app-config')).metadata.resourceVersion;
    const l = await s.kubectl(['label', 'cm', 'app-config', '-n', NS, 'tier=web']);
    assert.equal(l.code, 0, l.stderr);
    assert.equal(l.stdout, 'configmap/app-config labeled\n');
    const labeled = await get('app-config');
    assert.deepEqual(labeled.metadata.labels, { app: 'e2e', tier: 'web' });
    assert.ok(BigInt(labeled.metadata.resourceVersion) > BigInt(before), 'the label is a newer revision');

    const p = await s.kubectl(['patch', 'cm', 'app-config', '-n', NS, '--type', 'merge', '-p', '{"data":{"key":"two","more":"x"}}']);
    assert.equal(p.code, 0, p.stderr);
    assert.equal(p.stdout, 'configmap/app-config patched\n');
    assert.deepEqual((await get('app-config')).data, { key: 'two', more: 'x' });
  });

  it('replace with a stale resourceVersion is a Conflict and changes nothing', async () => {
    const stale = await get('app-config');
    assert.equal((await s.kubectl(['label', 'cm', 'app-config', '-n', NS, 'bump=1'])).code, 0);
    stale.data = { key: 'stale write' };
    const r = await s.kubectl(['replace', '-f', '-', '-n', NS], JSON.stringify(stale));
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "app-config": the object has been modified; please apply your changes to the latest version and try again\n');
    assert.deepEqual((await get('app-config')).data, { key: 'two', more: 'x' });
  });

  it('delete removes the object', async () => {
    const r = await s.kubectl(['delete', 'cm', 'app-config', '-n', NS]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap "app-config" deleted\n');
    const g = await s.kubectl(['get', 'cm', 'app-config', '-n', NS]);
    assert.equal(g.code, 1);
    assert.equal(g.stderr, 'Error from server (NotFound): configmaps "app-config" not found\n');
  });

  it('get -w prints the list, then each change as it happens', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], configMapManifest('w0', { a: '1' }))).code, 0);
    const w = s.kubectlStream(['get', 'cm', '-n', NS, '-w', '--output-watch-events', '-l', 'watched!=no']);
    try {
      const rowOf = (out: string, event: string, name: string): string[] | undefined =>
        lines(out).map(columns).find((c) => c[0] === event && c[1] === name);
      const initial = await w.waitFor((out) => rowOf(out, 'ADDED', 'w0') !== undefined, 'the initial ADDED w0 row');
      assert.deepEqual(columns(lines(initial)[0] ?? ''), ['EVENT', 'NAME', 'DATA', 'AGE']);

      assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], configMapManifest('w1', { a: '1' }))).code, 0);
      assert.equal(rowOf(await w.waitFor((out) => rowOf(out, 'ADDED', 'w1') !== undefined, 'ADDED w1'), 'ADDED', 'w1')?.[2], '1');

      assert.equal((await s.kubectl(['patch', 'cm', 'w1', '-n', NS, '--type', 'merge', '-p', '{"data":{"b":"2"}}'])).code, 0);
      assert.equal(rowOf(await w.waitFor((out) => rowOf(out, 'MODIFIED', 'w1') !== undefined, 'MODIFIED w1'), 'MODIFIED', 'w1')?.[2], '2');

      assert.equal((await s.kubectl(['delete', 'cm', 'w1', '-n', NS])).code, 0);
      await w.waitFor((out) => rowOf(out, 'DELETED', 'w1') !== undefined, 'DELETED w1');
      const events = lines(w.stdout()).slice(1).map(columns).map((c) => `${c[0]} ${c[1]}`).filter((e) => e.endsWith(' w1'));
      assert.deepEqual(events, ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    } finally {
      await w.stop();
    }
  });

  it('delete ns removes the namespace and everything in it', async () => {
    const d = await s.kubectl(['delete', 'ns', NS]);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, `namespace "${NS}" deleted\n`);
    const gone = await eventually(`namespace ${NS} to be gone`, async () => {
      const g = await s.kubectl(['get', 'ns', NS]);
      return g.code === 0 ? undefined : g;
    });
    assert.equal(gone.stderr, `Error from server (NotFound): namespaces "${NS}" not found\n`);
    for (const kind of ['configmaps', 'secrets', 'services']) {
      const r = await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/${kind}` });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual((r.json() as { items: unknown[] }).items, [], kind);
    }
  });
});
