// kubectl commands that lean on the server's API semantics: server-side apply (conflicts, forcing,
// migration from client-side apply), diff (server-side dry run), wait, get -w with watch events,
// foreground cascading delete, and replace --force.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lines } from './testing/kubectl.ts';
import { configMap, expectJSON, type Obj } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-kubectl-sem';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function cmYAML(name: string, data: Record<string, string>, labels: Record<string, string> = {}): string {
  const block = (m: Record<string, string>, indent: string): string => Object.entries(m).map(([k, v]) => `${indent}${k}: "${v}"\n`).join('');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${NS}\n` +
    (Object.keys(labels).length > 0 ? `  labels:\n${block(labels, '    ')}` : '') + `data:\n${block(data, '  ')}`;
}

describe('kubectl and the API semantics it relies on', () => {
  let s: Suite;
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const getCM = async (name: string): Promise<Obj> => expectJSON<Obj>(await s.request({ method: 'GET', path: `${CMS}/${name}` }), 200, `get ${name}`);
  const status = async (path: string): Promise<number> => (await s.request({ method: 'GET', path })).status;

  before(async () => {
    s = await startSuite();
    await ok(['create', 'namespace', NS]);
  });
  after(async () => { await s?.close(); });

  describe('apply --server-side', () => {
    it('applies, refuses a conflicting field, and takes it with --force-conflicts', async () => {
      assert.equal(await ok(['apply', '--server-side', '-f', '-'], cmYAML('ssa', { a: '1', b: '2' })), 'configmap/ssa serverside-applied\n');
      const applied = await getCM('ssa');
      assert.deepEqual(applied.metadata.managedFields?.map((m) => [m.manager, m.operation]), [['kubectl', 'Apply']]);

      await ok(['patch', 'configmap', 'ssa', '-n', NS, '--type=merge', '-p', '{"data":{"a":"theirs"}}']);
      const conflict = await s.kubectl(['apply', '--server-side', '-f', '-'], cmYAML('ssa', { a: '1', b: '2' }));
      assert.equal(conflict.code, 1);
      assert.match(conflict.stderr, /^error: Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: \.data\.a$/m);
      assert.equal((await getCM('ssa')).data?.['a'], 'theirs');

      assert.equal(await ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], cmYAML('ssa', { a: '1', b: '2' })),
        'configmap/ssa serverside-applied\n');
      const forced = await getCM('ssa');
      assert.deepEqual(forced.data, { a: '1', b: '2' });
      assert.deepEqual(forced.metadata.managedFields?.find((m) => m.manager === 'kubectl')?.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} } });
      assert.equal(forced.metadata.managedFields?.find((m) => m.manager === 'kubectl-patch'), undefined);
    });

    it('migrates from client-side apply without conflicts and updates last-applied-configuration', async () => {
      assert.equal(await ok(['apply', '-f', '-'], cmYAML('mig', { a: '1' })), 'configmap/mig created\n');
      const csa = await getCM('mig');
      assert.deepEqual(csa.metadata.managedFields?.map((m) => [m.manager, m.operation]), [['kubectl-client-side-apply', 'Update']]);

      assert.equal(await ok(['apply', '--server-side', '-f', '-'], cmYAML('mig', { a: '2', b: '3' })), 'configmap/mig serverside-applied\n');
      const ssa = await getCM('mig');
      assert.deepEqual(ssa.data, { a: '2', b: '3' });
      const last = JSON.parse(ssa.metadata.annotations?.[LAST_APPLIED] ?? '{}') as { data?: Record<string, string> };
      assert.deepEqual(last.data, { a: '2', b: '3' });
      assert.ok(ssa.metadata.managedFields?.some((m) => m.manager === 'kubectl' && m.operation === 'Apply'));
    });
  });

  it('diff -f: exit 0 when equal, 1 with a diff when different, and nothing changes', async () => {
    await ok(['apply', '-f', '-'], cmYAML('diffed', { a: '1' }));
    const same = await s.kubectl(['diff', '-f', '-'], cmYAML('diffed', { a: '1' }));
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stdout, '');
    const changed = await s.kubectl(['diff', '-f', '-'], cmYAML('diffed', { a: '2' }));
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(changed.stdout, /^-\s+a: "1"$/m);
    assert.match(changed.stdout, /^\+\s+a: "2"$/m);
    assert.deepEqual((await getCM('diffed')).data, { a: '1' });
  });

  describe('wait', () => {
    it('--for=delete returns once the object is gone', async () => {
      await ok(['create', '-f', '-'], configMap('doomed', {}, { namespace: NS, finalizers: ['example.com/hold'] }));
      await ok(['delete', 'configmap', 'doomed', '-n', NS, '--wait=false']);
      // -v=6 shows when kubectl's informer holds the object: only a deletion after that is waited for
      // (on an object already gone kubectl prints nothing).
      const w = s.kubectlStream(['wait', '--for=delete', 'configmap/doomed', '-n', NS, '--timeout=50s', '-v=6']);
      try {
        await w.waitFor((err) => err.includes('Caches populated'), 'kubectl wait to list the object', 'stderr');
        expectJSON(await s.request({ method: 'PATCH', path: `${CMS}/doomed`, body: '{"metadata":{"finalizers":null}}',
          contentType: 'application/merge-patch+json' }), 200, 'release');
        assert.equal(await w.waitFor((out) => out.endsWith('\n'), 'kubectl wait to report'), 'configmap/doomed condition met\n');
      } finally { await w.stop(); }
    });

    it('--for=condition=Ready sees a condition set through the status subresource', async () => {
      await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ready', namespace: NS },
        spec: { containers: [{ name: 'c', image: 'busybox' }] } }));
      const waiting = s.kubectl(['wait', '--for=condition=Ready', 'pod/ready', '-n', NS, '--timeout=50s']);
      expectJSON(await s.request({ method: 'PATCH', path: `/api/v1/namespaces/${NS}/pods/ready/status`, contentType: 'application/merge-patch+json',
        body: JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } }) }),
      200, 'status patch');
      const r = await waiting;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'pod/ready condition met\n');
    });

    it("--for=jsonpath='{.data.a}'=b", async () => {
      await ok(['create', '-f', '-'], configMap('jp', { a: 'x' }, { namespace: NS }));
      const waiting = s.kubectl(['wait', '--for=jsonpath={.data.a}=b', 'configmap/jp', '-n', NS, '--timeout=50s']);
      await ok(['patch', 'configmap', 'jp', '-n', NS, '--type=merge', '-p', '{"data":{"a":"b"}}']);
      const r = await waiting;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'configmap/jp condition met\n');
    });
  });

  it('get -w --output-watch-events prints ADDED, MODIFIED and DELETED rows', async () => {
    const w = s.kubectlStream(['get', 'configmaps', '-n', NS, '-l', 'app=watched', '-w', '--output-watch-events']);
    try {
      // kubectl prints the header with the first row; the initial list shows existing objects as ADDED.
      await ok(['create', '-f', '-'], configMap('watched', { a: '1' }, { namespace: NS, labels: { app: 'watched' } }));
      await w.waitFor((out) => /^ADDED\s+watched\s+1\s/m.test(out), 'ADDED');
      await ok(['patch', 'configmap', 'watched', '-n', NS, '--type=merge', '-p', '{"data":{"b":"2"}}']);
      await w.waitFor((out) => /^MODIFIED\s+watched\s+2\s/m.test(out), 'MODIFIED');
      await ok(['delete', 'configmap', 'watched', '-n', NS]);
      const out = await w.waitFor((o) => /^DELETED\s+watched\s+2\s/m.test(o), 'DELETED');
      assert.deepEqual(lines(out).map((l) => l.split(/\s+/).slice(0, 2).join(' ')), ['EVENT NAME', 'ADDED watched', 'MODIFIED watched', 'DELETED watched']);
    } finally { await w.stop(); }
  });

  it('delete --cascade=foreground removes the dependent first, then the owner', async () => {
    const owner = await getCM((await ok(['create', '-f', '-', '-o', 'name'], configMap('owner', {}, { namespace: NS }))).trim().replace('configmap/', ''));
    await ok(['create', '-f', '-'], configMap('owned', {}, { namespace: NS, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner',
      uid: owner.metadata.uid ?? '', blockOwnerDeletion: true }] }));
    assert.equal(await ok(['delete', 'configmap', 'owner', '-n', NS, '--cascade=foreground']), 'configmap "owner" deleted\n');
    // kubectl waits for the owner to be gone; foreground deletion removed the blocking dependent before it.
    assert.equal(await status(`${CMS}/owner`), 404);
    assert.equal(await status(`${CMS}/owned`), 404);
  });

  it('a namespace held by content with a finalizer stays Terminating, with only a deletionTimestamp, until the finalizer goes', async () => {
    await ok(['create', 'namespace', 'held']);
    await ok(['create', '-f', '-'], configMap('held', {}, { namespace: 'held', finalizers: ['example.com/hold'] }));
    assert.equal(await ok(['delete', 'namespace', 'held', '--wait=false']), 'namespace "held" deleted\n');
    const ns = expectJSON<Obj & { status?: { phase?: string } }>(await s.request({ method: 'GET', path: '/api/v1/namespaces/held' }), 200, 'get ns');
    assert.equal(ns.status?.phase, 'Terminating');
    assert.ok(ns.metadata.deletionTimestamp !== undefined);
    // kube's namespace registry sets no grace period.
    assert.equal(ns.metadata.deletionGracePeriodSeconds, undefined);
    // The namespace controller says what holds the namespace, as `kubectl describe ns` shows it.
    type Condition = { type: string; status: string; reason: string; message: string; lastTransitionTime?: string };
    const conditions = await eventually('the deletion conditions', async () => {
      const cur = expectJSON<Obj & { status?: { conditions?: Condition[] } }>(
        await s.request({ method: 'GET', path: '/api/v1/namespaces/held' }), 200, 'get ns');
      return (cur.status?.conditions ?? []).length === 5 ? cur.status?.conditions : undefined;
    });
    assert.deepEqual(conditions?.map(({ lastTransitionTime: _t, ...c }) => c), [
      { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
      { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
      { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' },
      { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain',
        message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' },
    ]);
    const described = await ok(['describe', 'namespace', 'held']);
    assert.match(described, /NamespaceFinalizersRemaining\s+True\s+.+\s+SomeFinalizersRemain\s+Some content in the namespace has finalizers remaining: example.com\/hold in 1 resource instances/);
    await ok(['patch', 'configmap', 'held', '-n', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await eventually('the namespace to be gone', async () => ((await status('/api/v1/namespaces/held')) === 404 ? true : undefined));
  });

  it('replace --force deletes and re-creates the object', async () => {
    await ok(['create', '-f', '-'], cmYAML('rep', { a: '1' }));
    const before = await getCM('rep');
    const out = await ok(['replace', '--force', '-f', '-'], cmYAML('rep', { a: '2' }));
    assert.deepEqual(lines(out), ['configmap "rep" deleted', 'configmap/rep replaced']);
    const after = await getCM('rep');
    assert.deepEqual(after.data, { a: '2' });
    assert.notEqual(after.metadata.uid, before.metadata.uid);
  });
});
