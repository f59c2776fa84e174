// kube-controller-manager v1.36 from the oracle build (scripts/build-oracle.sh) against kapi: its
// leader election Lease, its informers and protobuf clients (its default content type), one
// service account token per controller (TokenRequest) under kapi's RBAC, Deployments rolled out to
// ReplicaSets and Pods, scaling, Jobs, and deletion with each propagation policy. Skipped, with
// the reason, when the build is not cached.
//
// kapi runs its own garbage collector, namespace controller, resource quota controller, pv/pvc
// protection, the `default` ServiceAccount and kube-root-ca.crt publisher and ClusterRole
// aggregation in-process, and has no flag to turn them off; kube-controller-manager runs the same
// ones. They coexist as two replicas of one controller would: they converge on the same state, a
// conflict or AlreadyExists is retried or ignored. The test checks that they do not fight
// (kube-root-ca.crt stays unchanged) and that deletion ends where kube's would.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubeControllerManagerUnavailable, startKubeControllerManager, type KubeControllerManager } from './testing/kube-controller-manager.ts';
import { at, createNamespace, expectJSON } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-kcm';
const APPS = `/apis/apps/v1/namespaces/${NS}`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
const MERGE = 'application/merge-patch+json';
const LOG_TAIL = 20_000;
const ROOT_CA = `/api/v1/namespaces/${NS}/configmaps/kube-root-ca.crt`;

interface OwnerRef { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean }
interface Item {
  metadata: {
    name: string; uid: string; resourceVersion: string; generation?: number; labels?: Record<string, string>;
    annotations?: Record<string, string>; ownerReferences?: OwnerRef[]; finalizers?: string[]; deletionTimestamp?: string;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}
interface List { items: Item[] }

/** Lines of kube-controller-manager's log that point at kapi: failed requests, decoding, watches. */
const KAPI_TROUBLE = [
  /failed to list/i, /failed to watch/i, /watch of \S+ ended with/i, /unable to decode/i, /proto: /i,
  /the server (could not find|rejected|has asked|is currently unable|received unexpected)/i, /Internal error/i,
  /an error on the server/i, /status code 5\d\d/i, /forbidden/i, /Unauthorized/i, /unexpected EOF/i, /couldn't parse/i, /not valid JSON/i,
  // kube-apiserver's own objects the controllers read.
  /configmaps "kube-apiserver-legacy-service-account-token-tracking" not found/,
];

const EXPECTED_REFUSALS = /unable to create new content in namespace \S+ because it is being terminated/;

const skip = kubeControllerManagerUnavailable();
if (skip !== undefined) console.log(`# kube-controller-manager e2e skipped: ${skip}`);

describe('kube-controller-manager against kapi', { skip: skip ?? false }, () => {
  let s: Suite;
  let kcm: KubeControllerManager;
  let rootCA: Item;

  /** Runs a check; on failure its error carries the end of kube-controller-manager's log. */
  const withLog = async (fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      const log = await kcm.log().catch(() => '(no log)');
      if (err instanceof Error) err.message += `\n--- kube-controller-manager log (tail) ---\n${log.slice(-LOG_TAIL)}`;
      throw err;
    }
  };
  const get = async (path: string): Promise<Item | undefined> => {
    const r = await s.request({ method: 'GET', path });
    if (r.status === 404) return undefined;
    return expectJSON<Item>(r, 200, `GET ${path}`);
  };
  const list = async (path: string, selector?: string): Promise<Item[]> =>
    expectJSON<List>(await s.request({ method: 'GET', path: selector === undefined ? path : `${path}?labelSelector=${encodeURIComponent(selector)}` }),
      200, `LIST ${path}`).items;
  const ownedBy = (items: Item[], owner: Item): Item[] =>
    items.filter((i) => i.metadata.ownerReferences?.some((o) => o.uid === owner.metadata.uid) === true);
  const condition = (o: Item, type: string): Record<string, unknown> | undefined => {
    const cs = at(o, 'status', 'conditions');
    return Array.isArray(cs) ? (cs as Record<string, unknown>[]).find((c) => c['type'] === type) : undefined;
  };
  const deployment = (name: string, replicas: number): string => JSON.stringify({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } },
    },
  });
  /** Creates a Deployment and waits for its ReplicaSet and `replicas` Pods. */
  const rollOut = async (name: string, replicas: number): Promise<{ dep: Item; rs: Item; pods: Item[] }> => {
    const dep = expectJSON<Item>(await s.request({ method: 'POST', path: `${APPS}/deployments`, body: deployment(name, replicas) }), 201, `create ${name}`);
    const rs = await eventually(`a ReplicaSet of ${name}`, async () => ownedBy(await list(`${APPS}/replicasets`), dep)[0]);
    const pods = await eventually(`${replicas} pods of ${name}`, async () => {
      const p = ownedBy(await list(PODS), rs);
      return p.length === replicas ? p : undefined;
    });
    return { dep, rs, pods };
  };

  before(async () => {
    s = await startSuite({ flags: ['--authorization-mode', 'RBAC'] });
    await createNamespace(s, NS);
    // As kapi's own root-ca-cert-publisher wrote it, before kube-controller-manager's runs.
    rootCA = await eventually('kube-root-ca.crt', () => get(ROOT_CA));
    kcm = await startKubeControllerManager({
      kubeconfigPath: s.server.kubeconfigPath,
      flags: [
        '--leader-elect=true', '--leader-elect-resource-namespace=kube-system', '--controllers=*',
        // Each controller gets a token for its own service account in kube-system through kapi's
        // TokenRequest and is authorized by kapi's bootstrap system:controller:* roles.
        '--use-service-account-credentials=true',
        '--kube-api-content-type=application/vnd.kubernetes.protobuf',
        // Short enough that a renewal is seen within the test.
        '--leader-elect-retry-period=1s',
      ],
    });
  });
  after(async () => {
    await kcm?.stop();
    await s?.close();
  });

  it('takes the leader election Lease in kube-system and renews it', () => withLog(async () => {
    const first = await eventually('the kube-controller-manager Lease', () => get(LEASE));
    const holder = at(first, 'spec', 'holderIdentity');
    assert.equal(typeof holder, 'string');
    assert.match(String(holder), /_[0-9a-f-]{36}$/, 'holderIdentity is <hostname>_<uuid>');
    assert.equal(at(first, 'spec', 'leaseDurationSeconds'), 15);
    const renewed = await eventually('a renewal of the Lease', async () => {
      const l = await get(LEASE);
      return l !== undefined && at(l, 'spec', 'renewTime') !== at(first, 'spec', 'renewTime') ? l : undefined;
    });
    assert.equal(at(renewed, 'spec', 'holderIdentity'), holder);
    assert.ok(String(at(renewed, 'spec', 'renewTime')) > String(at(first, 'spec', 'renewTime')));
  }));

  it('gets a service account per controller and serves healthz on its own port', () => withLog(async () => {
    await eventually('the deployment-controller service account', () => get('/api/v1/namespaces/kube-system/serviceaccounts/deployment-controller'));
    const h = await eventually('kube-controller-manager /healthz', async () => {
      const r = await kcm.get('/healthz?verbose').catch(() => undefined);
      return r?.status === 200 ? r : undefined;
    });
    assert.match(h.text, /\[\+\]leaderElection ok/);
    assert.match(h.text, /healthz check passed/);
  }));

  it('rolls a Deployment out to a ReplicaSet and Pods that stay Pending', () => withLog(async () => {
    const { dep, rs, pods } = await rollOut('web', 2);
    const rsOwner = rs.metadata.ownerReferences ?? [];
    assert.deepEqual(rsOwner, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: dep.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const hash = rs.metadata.labels?.['pod-template-hash'];
    assert.ok(hash !== undefined && rs.metadata.name === `web-${hash}`, `ReplicaSet ${rs.metadata.name} is web-<pod-template-hash>`);
    assert.equal(rs.metadata.labels?.['app'], 'web');
    for (const p of pods) {
      assert.deepEqual(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      assert.ok(p.metadata.name.startsWith(`${rs.metadata.name}-`));
      assert.equal(p.metadata.labels?.['pod-template-hash'], hash);
      // No scheduler, no kubelet: Pending, unbound.
      assert.equal(at(p, 'status', 'phase'), 'Pending');
      assert.equal(at(p, 'spec', 'nodeName'), undefined);
      assert.equal(at(p, 'spec', 'serviceAccountName'), 'default');
    }
    // The controllers' status: the ReplicaSet counts its pods, none ready; the Deployment has
    // observed generation 1, is progressing and, with no pod available, not Available.
    const rsStatus = await eventually('the ReplicaSet status', async () => {
      const r = await get(`${APPS}/replicasets/${rs.metadata.name}`);
      return at(r, 'status', 'replicas') === 2 && at(r, 'status', 'observedGeneration') === 1 ? r : undefined;
    });
    assert.equal(at(rsStatus, 'status', 'readyReplicas'), undefined);
    const d = await eventually('the Deployment status', async () => {
      const x = await get(`${APPS}/deployments/web`);
      return x !== undefined && at(x, 'status', 'updatedReplicas') === 2 && condition(x, 'Available') !== undefined
        && condition(x, 'Progressing')?.['reason'] === 'ReplicaSetUpdated' ? x : undefined;
    });
    assert.equal(at(d, 'status', 'observedGeneration'), 1);
    assert.equal(at(d, 'status', 'replicas'), 2);
    assert.equal(at(d, 'status', 'unavailableReplicas'), 2);
    assert.equal(at(d, 'status', 'availableReplicas'), undefined);
    assert.deepEqual([condition(d, 'Available')?.['status'], condition(d, 'Available')?.['reason']], ['False', 'MinimumReplicasUnavailable']);
    assert.equal(condition(d, 'Progressing')?.['status'], 'True');
  }));

  it('scales the ReplicaSet when the Deployment is scaled', () => withLog(async () => {
    const r = await s.request({ method: 'PATCH', path: `${APPS}/deployments/web/scale`, contentType: MERGE, body: JSON.stringify({ spec: { replicas: 3 } }) });
    expectJSON(r, 200, 'scale web to 3');
    const rs = await eventually('the ReplicaSet scaled to 3', async () =>
      (await list(`${APPS}/replicasets`, 'app=web')).find((x) => at(x, 'spec', 'replicas') === 3));
    assert.equal(rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '3');
    await eventually('3 pods of web', async () => {
      const p = ownedBy(await list(PODS), rs);
      return p.length === 3 ? p : undefined;
    });
    expectJSON(await s.request({ method: 'PATCH', path: `${APPS}/deployments/web`, contentType: MERGE, body: JSON.stringify({ spec: { replicas: 1 } }) }), 200, 'scale web to 1');
    await eventually('1 pod of web', async () => {
      const p = ownedBy(await list(PODS), rs).filter((x) => x.metadata.deletionTimestamp === undefined);
      return p.length === 1 ? p : undefined;
    });
  }));

  it('runs a Job: its Pod is owned by the Job and tracked with a finalizer', () => withLog(async () => {
    const job = expectJSON<Item>(await s.request({ method: 'POST', path: `/apis/batch/v1/namespaces/${NS}/jobs`, body: JSON.stringify({
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } } },
    }) }), 201, 'create job');
    const pod = await eventually('the pod of the Job', async () => ownedBy(await list(PODS), job)[0]);
    assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'once', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal(pod.metadata.labels?.['batch.kubernetes.io/job-name'], 'once');
    assert.equal(pod.metadata.labels?.['batch.kubernetes.io/controller-uid'], job.metadata.uid);
    assert.deepEqual(pod.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    const j = await eventually('the Job status', async () => {
      const x = await get(`/apis/batch/v1/namespaces/${NS}/jobs/once`);
      return at(x, 'status', 'active') === 1 ? x : undefined;
    });
    assert.equal(typeof at(j, 'status', 'startTime'), 'string');
  }));

  for (const policy of ['Foreground', 'Background'] as const) {
    it(`deletes a Deployment with propagationPolicy=${policy}: its ReplicaSet and Pods go too`, () => withLog(async () => {
      const name = `del-${policy.toLowerCase()}`;
      const { dep, rs, pods } = await rollOut(name, 2);
      const r = await s.request({ method: 'DELETE', path: `${APPS}/deployments/${name}`, body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy }) });
      const answer = expectJSON<Item>(r, 200, `delete ${name}`);
      if (policy === 'Foreground') {
        // Foreground: the owner stays, marked, until its dependents are gone.
        assert.deepEqual(answer.metadata.finalizers, ['foregroundDeletion']);
        assert.equal(typeof answer.metadata.deletionTimestamp, 'string');
      }
      await eventually(`the Deployment ${name} gone`, async () => (await get(`${APPS}/deployments/${name}`)) === undefined ? true : undefined);
      await eventually(`the ReplicaSet of ${name} gone`, async () => (await get(`${APPS}/replicasets/${rs.metadata.name}`)) === undefined ? true : undefined);
      await eventually(`the pods of ${name} gone`, async () => {
        const left = (await list(PODS)).filter((p) => pods.some((q) => q.metadata.uid === p.metadata.uid));
        return left.length === 0 ? true : undefined;
      });
      assert.ok(dep.metadata.uid.length > 0);
    }));
  }

  it('runs a StatefulSet: pod 0 with its identity labels and a ControllerRevision', () => withLog(async () => {
    const sts = expectJSON<Item>(await s.request({ method: 'POST', path: `${APPS}/statefulsets`, body: JSON.stringify({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' },
      spec: {
        replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } },
      },
    }) }), 201, 'create statefulset');
    const pod = await eventually('pod db-0', () => get(`${PODS}/db-0`));
    assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: sts.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'db-0');
    assert.equal(pod.metadata.labels?.['apps.kubernetes.io/pod-index'], '0');
    const rev = await eventually('a ControllerRevision of db', async () => ownedBy(await list(`${APPS}/controllerrevisions`), sts)[0]);
    assert.equal(pod.metadata.labels?.['controller-revision-hash'], rev.metadata.name);
    // OrderedReady: db-1 waits for db-0 to be Running and Ready, which never happens here.
    assert.equal(await get(`${PODS}/db-1`), undefined);
  }));

  it('gives a Service its Endpoints and EndpointSlice (no pod has an IP, so no addresses)', () => withLog(async () => {
    expectJSON(await s.request({ method: 'POST', path: `/api/v1/namespaces/${NS}/services`, body: JSON.stringify({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'db' }, spec: { selector: { app: 'db' }, ports: [{ port: 80 }] },
    }) }), 201, 'create service');
    const slice = await eventually('an EndpointSlice of db', async () =>
      (await list(`/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, 'kubernetes.io/service-name=db'))[0]);
    assert.equal(slice.metadata.labels?.['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
    assert.equal(slice.metadata.ownerReferences?.[0]?.kind, 'Service');
    assert.deepEqual((slice as unknown as { endpoints: unknown }).endpoints, null);
    const ep = await eventually('the Endpoints of db', () => get(`/api/v1/namespaces/${NS}/endpoints/db`));
    assert.equal((ep as unknown as { subsets?: unknown }).subsets, undefined);
  }));

  it('leaves kube-root-ca.crt as kapi wrote it (both publish the same CA, so they do not fight)', () => withLog(async () => {
    assert.equal((await get(ROOT_CA))?.metadata.resourceVersion, rootCA.metadata.resourceVersion);
  }));

  it('deletes the namespace with both namespace controllers running', () => withLog(async () => {
    expectJSON(await s.request({ method: 'DELETE', path: `/api/v1/namespaces/${NS}` }), 200, 'delete namespace');
    await eventually(`namespace ${NS} gone`, async () => ((await get(`/api/v1/namespaces/${NS}`)) === undefined ? true : undefined));
  }));

  it('logs nothing that points at kapi: no failed list, watch, decode or request', () => withLog(async () => {
    assert.ok(kcm.running(), 'kube-controller-manager still runs');
    // Its flag dump at start (`FLAG: --authorization-webhook-cache-unauthorized-ttl`) is no trouble,
    // nor are controllers refused new pods while the test's namespace terminates (kube's
    // NamespaceLifecycle answers them the same 403).
    const trouble = (await kcm.log()).split('\n').filter((l) => !l.includes('] FLAG: --') && !EXPECTED_REFUSALS.test(l)
      && KAPI_TROUBLE.some((re) => re.test(l)));
    assert.deepEqual(trouble, []);
  }));
});
