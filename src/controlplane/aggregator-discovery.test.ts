// Discovery through the whole control plane: /apis and /apis/<group> follow the APIServices (their
// priorities order the groups; a remote APIService's group is listed, Stale while its backend
// cannot be asked), as kube's aggregator serves them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type InProcessServer } from './testing/in-process.ts';

const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** Polls until `probe` holds (a guard against a hang, not a timing assertion). */
async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await probe()) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

interface GroupList { groups: { name: string; versions: { version: string }[] }[] }
interface AggList { items: { metadata: { name?: string }; versions: { version: string; freshness?: string; resources?: unknown[] }[] }[] }

describe('discovery merged by the aggregator', () => {
  let s: InProcessServer;
  before(async () => { s = await startInProcess({}); });
  after(async () => { await s?.close(); });

  const names = async (accept: string): Promise<string[]> => {
    const r = await s.request({ method: 'GET', url: '/apis', headers: { accept } });
    assert.equal(r.statusCode, 200, r.text);
    const body = JSON.parse(r.text) as GroupList & AggList;
    return accept === AGG ? body.items.map((g) => g.metadata.name ?? '') : body.groups.map((g) => g.name);
  };

  for (const [kind, accept] of [['legacy', 'application/json'], ['aggregated', AGG]] as const) {
    it(`${kind} /apis orders built-in groups by their APIServices' priorities (resource.k8s.io 16200 before flowcontrol 16100)`, async () => {
      const got = await names(accept);
      assert.deepEqual(got.slice(0, 2), ['apiregistration.k8s.io', 'apps']);
      assert.deepEqual(got.filter((g) => ['discovery.k8s.io', 'resource.k8s.io', 'flowcontrol.apiserver.k8s.io'].includes(g)),
        ['discovery.k8s.io', 'resource.k8s.io', 'flowcontrol.apiserver.k8s.io']);
    });
  }

  it('a remote APIService\'s group is listed by its priority, Stale in aggregated discovery while its service is missing; /apis/<group> is served', async () => {
    const created = await s.request({ method: 'POST', url: '/apis/apiregistration.k8s.io/v1/apiservices', body: {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1alpha1.high.example.com' },
      spec: { group: 'high.example.com', version: 'v1alpha1', groupPriorityMinimum: 19000, versionPriority: 15, insecureSkipTLSVerify: true,
        service: { namespace: 'default', name: 'nosuch', port: 443 } },
    } });
    assert.equal(created.statusCode, 201, created.text);
    const listed = async (): Promise<AggList['items'][number] | undefined> => {
      const r = await s.request({ method: 'GET', url: '/apis', headers: { accept: AGG } });
      return (JSON.parse(r.text) as AggList).items.find((x) => x.metadata.name === 'high.example.com');
    };
    await until('the remote group in aggregated discovery', async () => (await listed()) !== undefined);
    assert.deepEqual((await listed())?.versions, [{ version: 'v1alpha1', freshness: 'Stale' }]);
    // client-go asks for protobuf first: the merged document encodes as well.
    const pb = await s.request({ method: 'GET', url: '/apis', headers: { accept: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    assert.equal(pb.statusCode, 200, pb.text);
    assert.ok(pb.body.includes(Buffer.from('high.example.com')) && pb.body.includes(Buffer.from('Stale')));
    assert.deepEqual((await names(AGG)).slice(0, 2), ['apiregistration.k8s.io', 'high.example.com']);
    // GET / lists the APIService's group and group version paths, as kube's aggregator registers them.
    const index = (await s.request({ method: 'GET', url: '/' })).json() as { paths: string[] };
    assert.deepEqual(index.paths.filter((p) => p.includes('high.example.com')), ['/apis/high.example.com', '/apis/high.example.com/v1alpha1']);
    assert.deepEqual((await names('application/json')).slice(0, 2), ['apiregistration.k8s.io', 'high.example.com']);
    const group = await s.request({ method: 'GET', url: '/apis/high.example.com' });
    assert.equal(group.statusCode, 200, group.text);
    assert.deepEqual(JSON.parse(group.text), {
      kind: 'APIGroup', apiVersion: 'v1', name: 'high.example.com',
      versions: [{ groupVersion: 'high.example.com/v1alpha1', version: 'v1alpha1' }],
      preferredVersion: { groupVersion: 'high.example.com/v1alpha1', version: 'v1alpha1' },
    });
    const deleted = await s.request({ method: 'DELETE', url: '/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.high.example.com' });
    assert.equal(deleted.statusCode, 200, deleted.text);
    await until('the group gone from discovery', async () =>
      !(await names(AGG)).includes('high.example.com') && !(await names('application/json')).includes('high.example.com'));
    assert.equal((await s.request({ method: 'GET', url: '/apis/high.example.com' })).statusCode, 404);
  });
});
