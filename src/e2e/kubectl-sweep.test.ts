// What the kubectl differential test (kubectl-differential.test.ts) found kapi printing unlike
// kube-apiserver v1.36, checked here against kapi alone so that it runs without the oracle:
// table columns of `kubectl get`, and the deprecation warning of deprecated kinds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columns, lines } from './testing/kubectl.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

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

  it('componentstatuses: controller-manager and scheduler probed as kube does, and etcd-0', async () => {
    const r = await s.kubectl(['get', 'componentstatuses']);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = lines(r.stdout);
    assert.deepEqual(columns(header ?? ''), ['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
    const byName = new Map(rows.map((row) => [columns(row)[0], columns(row)]));
    assert.deepEqual([...byName.keys()].sort(), ['controller-manager', 'etcd-0', 'scheduler']);
    assert.deepEqual(byName.get('etcd-0'), ['etcd-0', 'Healthy', 'ok']);
    // Whether something answers on 127.0.0.1:10259 depends on the machine; when nothing does, Go's words.
    const scheduler = byName.get('scheduler') ?? [];
    if (scheduler[1] === 'Unhealthy' && /refused/.test(scheduler[2] ?? '')) {
      assert.equal(scheduler[2], 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused');
    }
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

  describe('APIServices as kube registers them', () => {
    const jsonpath = '-o=jsonpath={.metadata.labels.kube-aggregator\\.kubernetes\\.io/automanaged} {.spec.groupPriorityMinimum}/{.spec.versionPriority} {.status.conditions[0].reason}';
    const cases = [
      { name: 'resource.k8s.io v1 has kube\'s priorities', apiService: 'v1.resource.k8s.io', want: 'onstart 16200/21 Local' },
      { name: 'coordination.k8s.io v1', apiService: 'v1.coordination.k8s.io', want: 'onstart 16500/15 Local' },
      { name: 'the core group', apiService: 'v1.', want: 'onstart 18000/1 Local' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const r = await s.kubectl(['get', 'apiservice', c.apiService, jsonpath]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, c.want);
      });
    }

    it('the aggregator\'s own group has no APIService', async () => {
      const r = await s.kubectl(['get', 'apiservice', 'v1.apiregistration.k8s.io']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /apiservices.apiregistration.k8s.io "v1.apiregistration.k8s.io" not found/);
    });

    it('a CRD\'s served group versions get automanaged APIServices, removed with the CRD', async () => {
      const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.sweep.example.com}
spec:
  group: sweep.example.com
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
`;
      const c = await s.kubectl(['create', '-f', '-'], crd);
      assert.equal(c.code, 0, c.stderr);
      const got = await eventually('the APIService of sweep.example.com/v1', async () => {
        const r = await s.kubectl(['get', 'apiservice', 'v1.sweep.example.com', jsonpath]);
        return r.code === 0 && r.stdout.endsWith('Local') ? r.stdout : undefined;
      });
      assert.equal(got, 'true 1000/100 Local');
      const v2 = await s.kubectl(['get', 'apiservice', 'v2.sweep.example.com']);
      assert.equal(v2.code, 1, 'an unserved version has no APIService');

      const d = await s.kubectl(['delete', 'crd', 'gadgets.sweep.example.com']);
      assert.equal(d.code, 0, d.stderr);
      await eventually('the APIService gone', async () => {
        const r = await s.kubectl(['get', 'apiservice', 'v1.sweep.example.com']);
        return r.code === 1 && /not found/.test(r.stderr) ? true : undefined;
      });
    });
  });
});
