// Client-side `kubectl apply`: create, unchanged, configured, the three-way merge from the
// last-applied-configuration annotation, fields owned by others surviving, --prune, pods, and
// multi-document files.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-apply';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

interface Obj {
  metadata: { name: string; uid: string; resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  spec?: { clusterIP?: string; containers?: { name: string; image: string }[]; ports?: { port: number; nodePort?: number }[] };
}

function configMap(name: string, labels: Record<string, string>, data: Record<string, string>): string {
  const block = (m: Record<string, string>): string => Object.entries(m).map(([k, v]) => `    ${k}: "${v}"\n`).join('');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${NS}\n  labels:\n${block(labels)}` +
    `data:\n${block(data).replace(/^ {2}/gm, '')}`;
}

function pod(image: string, env?: string): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: ${NS}
  labels:
    app: web
spec:
  containers:
  - name: main
    image: ${image}
${env === undefined ? '' : `    env:\n    - name: MODE\n      value: ${env}\n`}`;
}

describe('kubectl apply (client-side)', () => {
  let s: Suite;
  let dir: string;
  const apply = async (file: string, ...extra: string[]): Promise<string> => {
    const r = await s.kubectl(['apply', '-f', file, ...extra]);
    assert.equal(r.code, 0, `apply -f ${file}: ${r.stderr}`);
    return r.stdout;
  };
  const get = async (what: string): Promise<Obj> => {
    const r = await s.kubectl(['get', what, '-n', NS, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Obj;
  };

  before(async () => {
    s = await startSuite();
    dir = await mkdtemp(join(tmpdir(), 'kapi-e2e-apply-'));
    const r = await s.kubectl(['create', 'namespace', NS]);
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    await s?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('creates, then reports unchanged, then configured', async () => {
    const file = join(dir, 'app.yaml');
    await writeFile(file, configMap('app', { app: 'x' }, { a: '1', b: '2' }));
    assert.equal(await apply(file), 'configmap/app created\n');
    const created = await get('configmap/app');
    assert.deepEqual(created.data, { a: '1', b: '2' });
    assert.deepEqual(JSON.parse(created.metadata.annotations?.[LAST_APPLIED] ?? 'null'), {
      apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1', b: '2' },
      metadata: { annotations: {}, labels: { app: 'x' }, name: 'app', namespace: NS },
    });

    assert.equal(await apply(file), 'configmap/app unchanged\n');
    assert.equal((await get('configmap/app')).metadata.resourceVersion, created.metadata.resourceVersion);

    await writeFile(file, configMap('app', { app: 'x' }, { a: '1', b: '3' }));
    assert.equal(await apply(file), 'configmap/app configured\n');
    const configured = await get('configmap/app');
    assert.deepEqual(configured.data, { a: '1', b: '3' });
    assert.equal(configured.metadata.uid, created.metadata.uid);
    assert.deepEqual((JSON.parse(configured.metadata.annotations?.[LAST_APPLIED] ?? 'null') as Obj).data, { a: '1', b: '3' });
  });

  it('a key removed from the manifest is removed live; a label set by someone else survives', async () => {
    const label = await s.kubectl(['label', 'configmap', 'app', 'owner=ops', '-n', NS]);
    assert.equal(label.stdout, 'configmap/app labeled\n', label.stderr);
    const file = join(dir, 'app.yaml');
    await writeFile(file, configMap('app', { app: 'x' }, { b: '3' }));
    assert.equal(await apply(file), 'configmap/app configured\n');
    const live = await get('configmap/app');
    assert.deepEqual(live.data, { b: '3' });
    assert.deepEqual(live.metadata.labels, { app: 'x', owner: 'ops' });

    assert.equal(await apply(file), 'configmap/app unchanged\n', 'the foreign label is no diff');
  });

  it('--prune -l deletes labelled objects no longer in the directory', async () => {
    const d = join(dir, 'prune');
    await mkdir(d);
    await writeFile(join(d, 'keep.yaml'), configMap('keep', { app: 'p' }, { k: '1' }));
    await writeFile(join(d, 'old.yaml'), configMap('old', { app: 'p' }, { k: '2' }));
    // Not applied from the directory and labelled otherwise: prune must leave it alone.
    await writeFile(join(dir, 'bystander.yaml'), configMap('bystander', { app: 'other' }, { k: '3' }));
    assert.equal(await apply(join(dir, 'bystander.yaml')), 'configmap/bystander created\n');
    assert.equal(await apply(d), 'configmap/keep created\nconfigmap/old created\n');

    await unlink(join(d, 'old.yaml'));
    // Only core/v1 is served so far: kubectl's default prune list also names apps, batch and
    // networking kinds (and ReplicationController), which would fail the RESTMapping.
    const out = await apply(d, '--prune', '-l', 'app=p', '--prune-allowlist=core/v1/ConfigMap');
    assert.equal(out, 'configmap/keep unchanged\nconfigmap/old pruned\n');
    const g = await s.kubectl(['get', 'configmap', 'old', '-n', NS]);
    assert.equal(g.stderr, 'Error from server (NotFound): configmaps "old" not found\n');
    assert.equal((await s.kubectl(['get', 'configmap', 'bystander', '-n', NS])).code, 0);
    assert.equal((await s.kubectl(['get', 'configmap', 'keep', '-n', NS])).code, 0);
  });

  it('a pod: changing the image is configured; changing env is a forbidden pod update', async () => {
    const file = join(dir, 'pod.yaml');
    await writeFile(file, pod('nginx:1.26'));
    assert.equal(await apply(file), 'pod/web created\n');
    const created = await get('pod/web');
    await writeFile(file, pod('nginx:1.27'));
    assert.equal(await apply(file), 'pod/web configured\n');
    const updated = await get('pod/web');
    assert.deepEqual(updated.spec?.containers?.map((c) => c.image), ['nginx:1.27']);
    assert.equal(updated.metadata.uid, created.metadata.uid);
    assert.equal(await apply(file), 'pod/web unchanged\n');

    await writeFile(file, pod('nginx:1.27', 'debug'));
    const r = await s.kubectl(['apply', '-f', file]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.split('\n')[0], 'The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than ' +
      '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` ' +
      '(only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)');
    assert.equal((await get('pod/web')).metadata.resourceVersion, updated.metadata.resourceVersion);
  });

  it('a multi-document file applies every object, in order; re-applying changes nothing', async () => {
    const file = join(dir, 'multi.yaml');
    await writeFile(file, [
      configMap('multi-cm', { app: 'm' }, { k: 'v' }),
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: multi-secret\n  namespace: ${NS}\ntype: Opaque\ndata:\n  password: aHVudGVyMg==\n`,
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: multi-svc\n  namespace: ${NS}\nspec:\n  type: NodePort\n  selector:\n    app: m\n` +
        '  ports:\n  - port: 80\n    targetPort: 8080\n',
      `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: multi-sa\n  namespace: ${NS}\n`,
    ].join('---\n'));
    assert.equal(await apply(file),
      'configmap/multi-cm created\nsecret/multi-secret created\nservice/multi-svc created\nserviceaccount/multi-sa created\n');
    const svc = await get('service/multi-svc');
    assert.match(svc.spec?.clusterIP ?? '', /^10\.0\.0\.[0-9]+$/);
    const nodePort = svc.spec?.ports?.[0]?.nodePort ?? 0;
    assert.ok(nodePort >= 30000 && nodePort <= 32767, `nodePort ${nodePort}`);

    // Server-allocated fields (clusterIP, nodePort) and defaults are not in the manifest: no diff.
    assert.equal(await apply(file),
      'configmap/multi-cm unchanged\nsecret/multi-secret unchanged\nservice/multi-svc unchanged\nserviceaccount/multi-sa unchanged\n');
    const again = await get('service/multi-svc');
    assert.equal(again.spec?.clusterIP, svc.spec?.clusterIP);
    assert.equal(again.metadata.resourceVersion, svc.metadata.resourceVersion);
  });
});
