// kubectl's write paths: create -f / apply -f of a multi-document manifest, the output formats and
// selectors of get, label / annotate / patch / replace / delete, and server-side dry run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { columns, lines } from './testing/kubectl.ts';
import { configMapManifest, namespaceManifest } from './testing/manifests.ts';
import { startSuite, type Suite } from './testing/suite.ts';

/** A ConfigMap, a Secret, a Service and a Pod, as a user would write them. */
function manifest(ns: string, value: string): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: ${ns}
  labels:
    app: e2e
data:
  key: ${value}
  other: x
---
apiVersion: v1
kind: Secret
metadata:
  name: app-secret
  namespace: ${ns}
type: Opaque
data:
  password: aHVudGVyMg==
---
apiVersion: v1
kind: Service
metadata:
  name: app-svc
  namespace: ${ns}
spec:
  selector:
    app: e2e
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: v1
kind: Pod
metadata:
  name: app-pod
  namespace: ${ns}
  labels:
    app: e2e
spec:
  containers:
  - name: main
    image: nginx:1.27
`;
}

interface ConfigMapJSON {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; creationTimestamp: string;
    labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

describe('kubectl create, apply and get', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    for (const ns of ['e2e-create', 'e2e-apply', 'e2e-chunk']) {
      const r = await s.kubectl(['create', '-f', '-'], namespaceManifest(ns));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `namespace/${ns} created\n`);
    }
  });
  after(async () => { await s?.close(); });

  it('create -f of a multi-document manifest creates all four objects', async () => {
    const r = await s.kubectl(['create', '-f', '-'], manifest('e2e-create', 'one'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lines(r.stdout), ['configmap/app-config created', 'secret/app-secret created', 'service/app-svc created', 'pod/app-pod created']);
  });

  it('get prints kube-apiserver table columns for each kind', async () => {
    const cases = [
      { name: 'configmaps', args: ['get', 'configmap', 'app-config'], header: ['NAME', 'DATA', 'AGE'], row: /^app-config\s+2\s+\S+$/ },
      { name: 'secrets', args: ['get', 'secret', 'app-secret'], header: ['NAME', 'TYPE', 'DATA', 'AGE'], row: /^app-secret\s+Opaque\s+1\s+\S+$/ },
      { name: 'services', args: ['get', 'service', 'app-svc'], header: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
        row: /^app-svc\s+ClusterIP\s+10\.0\.0\.\d+\s+<none>\s+80\/TCP\s+\S+$/ },
      { name: 'pods', args: ['get', 'pods', 'app-pod'], header: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], row: /^app-pod\s+0\/1\s+Pending\s+0\s+\S+$/ },
    ];
    for (const c of cases) {
      const r = await s.kubectl([...c.args, '-n', 'e2e-create']);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      const [header, row, ...rest] = lines(r.stdout);
      assert.deepEqual(columns(header ?? ''), c.header, c.name);
      assert.match(row ?? '', c.row, c.name);
      assert.deepEqual(rest, [], c.name);
    }
  });

  it('imperative create (a protobuf request body) of a namespace, configmap, secret and service', async () => {
    const cases = [
      { name: 'namespace', args: ['create', 'namespace', 'e2e-imperative'], out: 'namespace/e2e-imperative created\n' },
      { name: 'configmap', args: ['create', 'configmap', 'imp-cm', '-n', 'e2e-imperative', '--from-literal=a=b', '--from-literal=c=d'],
        out: 'configmap/imp-cm created\n' },
      { name: 'secret', args: ['create', 'secret', 'generic', 'imp-secret', '-n', 'e2e-imperative', '--from-literal=p=q'], out: 'secret/imp-secret created\n' },
      { name: 'service', args: ['create', 'service', 'clusterip', 'imp-svc', '-n', 'e2e-imperative', '--tcp=8080:80'], out: 'service/imp-svc created\n' },
    ];
    for (const c of cases) {
      const r = await s.kubectl(c.args);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      assert.equal(r.stdout, c.out, c.name);
    }
    const cm = await s.kubectl(['get', 'cm', 'imp-cm', '-n', 'e2e-imperative', '-o', 'jsonpath={.data}']);
    assert.deepEqual(JSON.parse(cm.stdout), { a: 'b', c: 'd' });
  });

  it('stringData of a secret is stored base64 in data', async () => {
    const secret = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'string-data' }, stringData: { password: 'swordfish' } });
    const c = await s.kubectl(['create', '-f', '-', '-n', 'e2e-create'], secret);
    assert.equal(c.code, 0, c.stderr);
    const r = await s.kubectl(['get', 'secret', 'string-data', '-n', 'e2e-create', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const stored = JSON.parse(r.stdout) as { data?: Record<string, string>; stringData?: unknown; type?: string };
    assert.deepEqual(stored.data, { password: Buffer.from('swordfish').toString('base64') });
    assert.equal(stored.stringData, undefined);
    assert.equal(stored.type, 'Opaque');
  });

  it('apply -f of new objects creates them, again leaves them unchanged, a change configures', async () => {
    const first = await s.kubectl(['apply', '-f', '-'], manifest('e2e-apply', 'one'));
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(lines(first.stdout), ['configmap/app-config created', 'secret/app-secret created', 'service/app-svc created', 'pod/app-pod created']);

    const cm = await s.kubectl(['get', 'cm', 'app-config', '-n', 'e2e-apply', '-o', 'json']);
    const obj = JSON.parse(cm.stdout) as ConfigMapJSON;
    const lastApplied = obj.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
    assert.ok(lastApplied !== undefined, 'last-applied-configuration annotation is stored');
    assert.deepEqual((JSON.parse(lastApplied) as ConfigMapJSON).data, { key: 'one', other: 'x' });

    const again = await s.kubectl(['apply', '-f', '-'], manifest('e2e-apply', 'one'));
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(lines(again.stdout), ['configmap/app-config unchanged', 'secret/app-secret unchanged', 'service/app-svc unchanged', 'pod/app-pod unchanged']);

    const changed = await s.kubectl(['apply', '-f', '-'], manifest('e2e-apply', 'two'));
    assert.equal(changed.code, 0, changed.stderr);
    assert.deepEqual(lines(changed.stdout), ['configmap/app-config configured', 'secret/app-secret unchanged', 'service/app-svc unchanged', 'pod/app-pod unchanged']);
    const v = await s.kubectl(['get', 'cm', 'app-config', '-n', 'e2e-apply', '-o', 'jsonpath={.data.key}']);
    assert.equal(v.stdout, 'two');
  });

  it('get -o yaml and -o json return the stored object with server-set metadata', async () => {
    const y = await s.kubectl(['get', 'configmap', 'app-config', '-n', 'e2e-create', '-o', 'yaml']);
    assert.equal(y.code, 0, y.stderr);
    const fromYaml = parse(y.stdout) as ConfigMapJSON;
    const j = await s.kubectl(['get', 'configmap', 'app-config', '-n', 'e2e-create', '-o', 'json']);
    assert.equal(j.code, 0, j.stderr);
    const fromJson = JSON.parse(j.stdout) as ConfigMapJSON;
    for (const obj of [fromYaml, fromJson]) {
      assert.equal(obj.apiVersion, 'v1');
      assert.equal(obj.kind, 'ConfigMap');
      assert.equal(obj.metadata.name, 'app-config');
      assert.equal(obj.metadata.namespace, 'e2e-create');
      assert.match(obj.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.match(obj.metadata.resourceVersion, /^\d+$/);
      assert.match(obj.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.deepEqual(obj.metadata.labels, { app: 'e2e' });
      assert.deepEqual(obj.data, { key: 'one', other: 'x' });
    }
    assert.equal(fromYaml.metadata.resourceVersion, fromJson.metadata.resourceVersion);
  });

  it('get -o jsonpath, -o name, -l and --field-selector', async () => {
    const cases = [
      { name: 'jsonpath of one object', args: ['get', 'cm', 'app-config', '-o', 'jsonpath={.metadata.name}={.data.key}'], want: 'app-config=one' },
      { name: 'jsonpath over a list', args: ['get', 'pods', '-o', 'jsonpath={.items[*].spec.containers[0].image}'], want: 'nginx:1.27' },
      { name: '-o name of one object', args: ['get', 'cm', 'app-config', '-o', 'name'], want: 'configmap/app-config\n' },
      { name: '-l selects by label', args: ['get', 'cm,pods,secrets', '-l', 'app=e2e', '-o', 'name'], want: 'configmap/app-config\npod/app-pod\n' },
      { name: '-l with a set-based selector', args: ['get', 'cm', '-l', 'app in (e2e,other)', '-o', 'name'], want: 'configmap/app-config\n' },
      { name: '-l that matches nothing', args: ['get', 'cm', '-l', 'app=none', '-o', 'name'], want: '' },
      { name: '--field-selector metadata.name', args: ['get', 'secrets', '--field-selector', 'metadata.name=app-secret', '-o', 'name'], want: 'secret/app-secret\n' },
      { name: '--field-selector with !=', args: ['get', 'cm', '--field-selector', 'metadata.name!=app-config', '-o', 'name', '-l', 'app=e2e'], want: '' },
      { name: '--field-selector on a pod field', args: ['get', 'pods', '--field-selector', 'status.phase=Pending', '-o', 'name'], want: 'pod/app-pod\n' },
    ];
    for (const c of cases) {
      const r = await s.kubectl([...c.args, '-n', 'e2e-create']);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      assert.equal(r.stdout, c.want, c.name);
    }
  });

  it('get with a selector matching nothing says so on stderr', async () => {
    const r = await s.kubectl(['get', 'cm', '-l', 'app=none', '-n', 'e2e-create']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'No resources found in e2e-create namespace.\n');
  });

  it('get --field-selector on an unsupported field is refused', async () => {
    const r = await s.kubectl(['get', 'cm', '--field-selector', 'data.key=one', '-n', 'e2e-create']);
    assert.notEqual(r.code, 0);
    // kubectl prefixes the server's message; configmaps have only the metadata field selectors.
    assert.match(r.stderr, /^Error from server \(BadRequest\): Unable to find "[^"]*configmaps" that match label selector "", field selector "data\.key=one": "data\.key" is not a known field selector: only "metadata\.name", "metadata\.namespace"$/m);
  });

  it('get -A lists across namespaces with a NAMESPACE column', async () => {
    const r = await s.kubectl(['get', 'cm', '-A', '-l', 'app=e2e']);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = lines(r.stdout);
    assert.deepEqual(columns(header ?? ''), ['NAMESPACE', 'NAME', 'DATA', 'AGE']);
    assert.deepEqual(rows.map((row) => columns(row).slice(0, 3)), [['e2e-apply', 'app-config', '2'], ['e2e-create', 'app-config', '2']]);

    const n = await s.kubectl(['get', 'pods', '--all-namespaces', '-o', 'name']);
    assert.equal(n.code, 0, n.stderr);
    assert.deepEqual(lines(n.stdout), ['pod/app-pod', 'pod/app-pod']);
  });

  it('get --chunk-size=2 pages through the list with continue tokens', async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'];
    for (const n of names) {
      const r = await s.kubectl(['create', '-f', '-', '-n', 'e2e-chunk'], configMapManifest(n, { n }));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `configmap/${n} created\n`);
    }
    const r = await s.kubectl(['get', 'cm', '-n', 'e2e-chunk', '-l', 'kapi-e2e!=x', '--chunk-size=2', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = lines(r.stdout);
    assert.deepEqual(columns(header ?? ''), ['NAME', 'DATA', 'AGE']);
    const listed = rows.map((row) => columns(row)[0]);
    for (const n of names) assert.ok(listed.includes(n), `${n} in:\n${r.stdout}`);
    const requests = r.stderr.split('\n').filter((l) => /GET https:\/\/\S+\/api\/v1\/namespaces\/e2e-chunk\/configmaps\?/.test(l));
    assert.ok(requests.length >= 3, `at least three pages for ${listed.length} objects:\n${requests.join('\n')}`);
    assert.ok(requests.every((l) => l.includes('limit=2')), requests.join('\n'));
    assert.ok(requests.slice(1).every((l) => l.includes('continue=')), requests.join('\n'));

    const o = await s.kubectl(['get', 'cm', '-n', 'e2e-chunk', '--chunk-size=2', '-o', 'name']);
    assert.equal(o.code, 0, o.stderr);
    for (const n of names) assert.ok(lines(o.stdout).includes(`configmap/${n}`), o.stdout);
  });
});
