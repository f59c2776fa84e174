// kubectl's update paths on one ConfigMap: label, annotate, patch (merge, json, strategic), replace,
// delete, server-side dry run, and `get -w` seeing the changes as they happen.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columns, lines } from './testing/kubectl.ts';
import { configMapManifest, namespaceManifest } from './testing/manifests.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-mutate';

interface ConfigMapJSON {
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string>;
    managedFields?: { manager: string; operation: string }[] };
  data?: Record<string, string>;
}

describe('kubectl label, annotate, patch, replace, delete', () => {
  let s: Suite;
  const get = async (name: string): Promise<ConfigMapJSON> => {
    const r = await s.kubectl(['get', 'cm', name, '-n', NS, '-o', 'json', '--show-managed-fields']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as ConfigMapJSON;
  };

  before(async () => {
    s = await startSuite();
    const r = await s.kubectl(['create', '-f', '-'], namespaceManifest(NS));
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => { await s?.close(); });

  it('label adds, overwrites and removes labels', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], configMapManifest('lab', { k: 'v' }))).stdout, 'configmap/lab created\n');
    const cases = [
      { name: 'add', args: ['env=prod', 'tier=web'], out: 'configmap/lab labeled\n', want: { env: 'prod', tier: 'web' } },
      { name: 'overwrite', args: ['env=dev', '--overwrite'], out: 'configmap/lab labeled\n', want: { env: 'dev', tier: 'web' } },
      { name: 'remove', args: ['tier-'], out: 'configmap/lab unlabeled\n', want: { env: 'dev' } },
    ];
    for (const c of cases) {
      const r = await s.kubectl(['label', 'cm', 'lab', '-n', NS, ...c.args]);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      assert.equal(r.stdout, c.out, c.name);
      assert.deepEqual((await get('lab')).metadata.labels, c.want, c.name);
    }
  });

  it('managedFields record each kubectl field manager', async () => {
    const managers = (await get('lab')).metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`) ?? [];
    assert.deepEqual(managers, ['kubectl-create/Update', 'kubectl-label/Update']);
  });

  it('annotate adds an annotation', async () => {
    const r = await s.kubectl(['annotate', 'cm', 'lab', '-n', NS, 'note=hello world']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/lab annotated\n');
    assert.equal((await get('lab')).metadata.annotations?.['note'], 'hello world');
  });

  it('patch --type merge, --type json and the default strategic merge patch', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], configMapManifest('pat', { a: '1', b: '2' }))).code, 0);
    const cases = [
      { name: 'merge patch', args: ['--type', 'merge', '-p', '{"data":{"a":"10","c":"3"}}'], want: { a: '10', b: '2', c: '3' } },
      { name: 'merge patch deleting a key with null', args: ['--type', 'merge', '-p', '{"data":{"c":null}}'], want: { a: '10', b: '2' } },
      { name: 'json patch', args: ['--type', 'json', '-p', '[{"op":"add","path":"/data/d","value":"4"},{"op":"remove","path":"/data/b"}]'],
        want: { a: '10', d: '4' } },
      { name: 'strategic merge patch', args: ['-p', '{"data":{"e":"5"}}'], want: { a: '10', d: '4', e: '5' } },
    ];
    for (const c of cases) {
      const before = (await get('pat')).metadata.resourceVersion;
      const r = await s.kubectl(['patch', 'cm', 'pat', '-n', NS, ...c.args]);
      assert.equal(r.code, 0, `${c.name}: ${r.stderr}`);
      assert.equal(r.stdout, 'configmap/pat patched\n', c.name);
      const after = await get('pat');
      assert.deepEqual(after.data, c.want, c.name);
      assert.notEqual(after.metadata.resourceVersion, before, c.name);
    }
  });

  it('a patch that changes nothing reports "(no change)" and keeps the resourceVersion', async () => {
    const before = (await get('pat')).metadata.resourceVersion;
    const r = await s.kubectl(['patch', 'cm', 'pat', '-n', NS, '--type', 'merge', '-p', '{"data":{"a":"10"}}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/pat patched (no change)\n');
    assert.equal((await get('pat')).metadata.resourceVersion, before);
  });

  it('replace -f writes the whole object', async () => {
    const current = await get('pat');
    const body = { apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'pat', resourceVersion: current.metadata.resourceVersion }, data: { only: 'this' } };
    const r = await s.kubectl(['replace', '-f', '-', '-n', NS], JSON.stringify(body));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/pat replaced\n');
    assert.deepEqual((await get('pat')).data, { only: 'this' });
  });

  it('delete removes the object', async () => {
    const r = await s.kubectl(['delete', 'cm', 'pat', '-n', NS]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap "pat" deleted\n');
    const g = await s.kubectl(['get', 'cm', 'pat', '-n', NS]);
    assert.equal(g.code, 1);
    assert.equal(g.stderr, 'Error from server (NotFound): configmaps "pat" not found\n');
  });

  it('--dry-run=server validates and answers but stores nothing', async () => {
    const c = await s.kubectl(['create', '-f', '-', '-n', NS, '--dry-run=server'], configMapManifest('dry', { k: 'v' }));
    assert.equal(c.code, 0, c.stderr);
    assert.equal(c.stdout, 'configmap/dry created (server dry run)\n');
    const g = await s.kubectl(['get', 'cm', 'dry', '-n', NS]);
    assert.equal(g.stderr, 'Error from server (NotFound): configmaps "dry" not found\n');

    const y = await s.kubectl(['create', '-f', '-', '-n', NS, '--dry-run=server', '-o', 'json'], configMapManifest('dry2', { k: 'v' }));
    assert.equal(y.code, 0, y.stderr);
    const echoed = JSON.parse(y.stdout) as ConfigMapJSON & { metadata: { uid?: string } };
    assert.equal(echoed.metadata.name, 'dry2');
    assert.ok(echoed.metadata.uid !== undefined && echoed.metadata.uid !== '', 'dry-run response is the object as it would be stored');
    assert.equal((await s.kubectl(['get', 'cm', 'dry2', '-n', NS])).code, 1);

    const before = await get('lab');
    const l = await s.kubectl(['label', 'cm', 'lab', '-n', NS, 'dry=run', '--dry-run=server']);
    assert.equal(l.code, 0, l.stderr);
    assert.equal(l.stdout, 'configmap/lab labeled (server dry run)\n');
    const d = await s.kubectl(['delete', 'cm', 'lab', '-n', NS, '--dry-run=server']);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, 'configmap "lab" deleted (server dry run)\n');
    const after = await get('lab');
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.deepEqual(after.metadata.labels, before.metadata.labels);
  });

  it('get -w prints the list, then each change as it happens', async () => {
    assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], configMapManifest('w0', { a: '1' }))).code, 0);
    const w = s.kubectlStream(['get', 'cm', '-n', NS, '-w', '--output-watch-events', '--field-selector', 'metadata.name!=lab']);
    try {
      const rowOf = (out: string, event: string, name: string): string[] | undefined =>
        lines(out).map(columns).find((c) => c[0] === event && c[1] === name);
      const initial = await w.waitFor((out) => rowOf(out, 'ADDED', 'w0') !== undefined, 'the initial ADDED w0 row');
      assert.deepEqual(columns(lines(initial)[0] ?? ''), ['EVENT', 'NAME', 'DATA', 'AGE']);

      assert.equal((await s.kubectl(['create', '-f', '-', '-n', NS], configMapManifest('w1', { a: '1' }))).code, 0);
      const added = await w.waitFor((out) => rowOf(out, 'ADDED', 'w1') !== undefined, 'ADDED w1');
      assert.equal(rowOf(added, 'ADDED', 'w1')?.[2], '1');

      assert.equal((await s.kubectl(['patch', 'cm', 'w1', '-n', NS, '--type', 'merge', '-p', '{"data":{"b":"2"}}'])).code, 0);
      const modified = await w.waitFor((out) => rowOf(out, 'MODIFIED', 'w1') !== undefined, 'MODIFIED w1');
      assert.equal(rowOf(modified, 'MODIFIED', 'w1')?.[2], '2');

      assert.equal((await s.kubectl(['delete', 'cm', 'w1', '-n', NS])).code, 0);
      await w.waitFor((out) => rowOf(out, 'DELETED', 'w1') !== undefined, 'DELETED w1');

      const events = lines(w.stdout()).slice(1).map((l) => columns(l).slice(0, 2).join(' ')).filter((e) => e !== 'ADDED kube-root-ca.crt');
      assert.deepEqual(events, ['ADDED w0', 'ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    } finally {
      await w.stop();
    }
  });
});
