// What the kubectl differential test (kubectl-differential.test.ts) found kapi printing unlike
// kube-apiserver v1.36, checked here against kapi alone so that it runs without the oracle:
// table columns of `kubectl get`, and the deprecation warning of deprecated kinds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columns, lines } from './testing/kubectl.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-sweep';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('kubectl sweep: what kube prints', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    const r = await s.kubectl(['create', 'namespace', NS]);
    assert.equal(r.code, 0, r.stderr);
    for (const args of [['create', 'serviceaccount', 'sa1'], ['create', 'quota', 'q1', '--hard=pods=10'],
      ['create', 'service', 'clusterip', 'svc1', '--tcp=80:80']]) {
      const c = await s.kubectl([...args, '-n', NS]);
      assert.equal(c.code, 0, c.stderr);
    }
  });
  after(async () => { await s?.close(); });

  describe('table columns of kubectl get', () => {
    const cases = [
      // kube 1.36's printer has no Secrets column for ServiceAccounts.
      { name: 'serviceaccounts: name and age', resource: 'serviceaccounts', header: ['NAME', 'AGE'], row: /^sa1\s+\S+$/ },
      // Request and Limit come before Age.
      { name: 'resourcequotas: age last', resource: 'resourcequotas', header: ['NAME', 'REQUEST', 'LIMIT', 'AGE'], row: /^q1\s+pods: \d+\/10\s+\S+$/ },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const r = await s.kubectl(['get', c.resource, '-n', NS]);
        assert.equal(r.code, 0, r.stderr);
        const [header, ...rows] = lines(r.stdout);
        assert.deepEqual(columns(header ?? ''), c.header);
        assert.ok(rows.some((row) => c.row.test(row)), r.stdout);
      });
    }

    it('csistoragecapacities: the default table (Name, Created At), as kube registers no printer', async () => {
      const r = await s.request({ method: 'GET', path: `/apis/storage.k8s.io/v1/namespaces/${NS}/csistoragecapacities`, headers: { Accept: TABLE } });
      assert.equal(r.status, 200, r.text);
      const table = r.json() as { columnDefinitions: { name: string; type: string; format: string }[] };
      assert.deepEqual(table.columnDefinitions.map((c) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Created At', 'date', '']]);
    });
  });

  describe('deprecated kinds warn on every request', () => {
    const endpointsWarning = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';
    const cases = [
      { name: 'get endpoints', args: ['get', 'endpoints', '-n', NS], warning: endpointsWarning },
      { name: 'get a missing Endpoints', args: ['get', 'endpoints', 'nope', '-n', NS], warning: endpointsWarning },
      { name: 'create endpoints', args: ['create', '-n', NS, '-f', '-'], warning: endpointsWarning,
        stdin: 'apiVersion: v1\nkind: Endpoints\nmetadata: {name: ep1}\n' },
      { name: 'delete endpoints', args: ['delete', 'endpoints', 'ep1', '-n', NS], warning: endpointsWarning },
      { name: 'get componentstatuses', args: ['get', 'componentstatuses'], warning: 'v1 ComponentStatus is deprecated in v1.19+' },
      { name: 'get services (not deprecated)', args: ['get', 'services', '-n', NS], warning: undefined },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const r = await s.kubectl(c.args, c.stdin);
        const warnings = lines(r.stderr).filter((l) => l.startsWith('Warning: '));
        assert.deepEqual(warnings, c.warning === undefined ? [] : [`Warning: ${c.warning}`], r.stderr);
      });
    }

    it('a watch of Endpoints carries the warning header too', async () => {
      const r = await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/endpoints?watch=1&timeoutSeconds=1` });
      assert.equal(r.status, 200);
      assert.equal(r.headers['warning'], `299 - "${endpointsWarning}"`);
    });
  });
});
