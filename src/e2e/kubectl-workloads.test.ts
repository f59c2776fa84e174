// kubectl's workload and policy commands against the served groups (apps, autoscaling, batch, rbac,
// scheduling, networking, policy, events): create/scale/autoscale/set image/rollout, the objects as
// stored with kube's defaults, and the server-side tables kubectl prints for them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { columns, lines } from './testing/kubectl.ts';
import { at } from './testing/objects.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-workloads';
/** An AGE cell as kube's duration.HumanDuration prints it (e.g. 5s, 3m2s, 325d). */
const AGE = /^\d+[smhdy](\d+[smh])?$/;

type Json = Record<string, unknown>;

/** A table's rows as cells, with the AGE-like cells checked and replaced by 'AGE'. */
function table(out: string): { header: string; rows: string[][] } {
  const [header = '', ...rest] = lines(out);
  return { header, rows: rest.map((l) => columns(l).map((c) => (AGE.test(c) ? 'AGE' : c))) };
}

describe('kubectl workload commands', () => {
  let s: Suite;
  const ok = async (args: readonly string[], input?: string): Promise<string> => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const get = async (what: string, ns: string | null = NS): Promise<Json> =>
    JSON.parse(await ok(['get', what, ...(ns === null ? [] : ['-n', ns]), '-o', 'json'])) as Json;

  before(async () => {
    s = await startSuite();
    await ok(['create', 'namespace', NS]);
  });
  after(async () => { await s?.close(); });

  it('create deployment stores kube\'s defaults', async () => {
    assert.equal(await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2', '-n', NS]), 'deployment.apps/web created\n');
    const d = await get('deployment/web');
    assert.equal(at(d, 'apiVersion'), 'apps/v1');
    assert.equal(at(d, 'metadata', 'generation'), 1);
    assert.deepEqual(at(d, 'metadata', 'labels'), { app: 'web' });
    assert.deepEqual(at(d, 'spec'), {
      progressDeadlineSeconds: 600, replicas: 2, revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{ image: 'nginx', imagePullPolicy: 'Always', name: 'nginx', resources: {},
            terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
          dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler',
          securityContext: {}, terminationGracePeriodSeconds: 30,
        },
      },
    });
    assert.deepEqual(at(d, 'status'), {});
  });

  it('get deployments prints kube\'s columns', async () => {
    const t = table(await ok(['get', 'deployments', '-n', NS]));
    assert.equal(t.header, 'NAME   READY   UP-TO-DATE   AVAILABLE   AGE');
    assert.deepEqual(t.rows, [['web', '0/2', '0', '0', 'AGE']]);
    const w = table(await ok(['get', 'deployments', '-n', NS, '-o', 'wide']));
    assert.equal(w.header, 'NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES   SELECTOR');
    assert.deepEqual(w.rows, [['web', '0/2', '0', '0', 'AGE', 'nginx', 'nginx', 'app=web']]);
  });

  it('scale bumps spec.replicas and generation', async () => {
    assert.equal(await ok(['scale', 'deploy', 'web', '--replicas=5', '-n', NS]), 'deployment.apps/web scaled\n');
    const d = await get('deployment/web');
    assert.equal(at(d, 'spec', 'replicas'), 5);
    assert.equal(at(d, 'metadata', 'generation'), 2);
    const res = await s.request({ method: 'GET', path: `/apis/apps/v1/namespaces/${NS}/deployments/web/scale` });
    assert.equal(res.status, 200, res.text);
    const scale = res.json();
    assert.equal(at(scale, 'apiVersion'), 'autoscaling/v1');
    assert.equal(at(scale, 'kind'), 'Scale');
    assert.deepEqual(at(scale, 'spec'), { replicas: 5 });
    assert.deepEqual(at(scale, 'status'), { replicas: 0, selector: 'app=web' });
  });

  it('autoscale creates an HPA readable as autoscaling/v1 and v2', async () => {
    assert.equal(await ok(['autoscale', 'deploy', 'web', '--min=2', '--max=5', '--cpu-percent=70', '-n', NS]),
      'horizontalpodautoscaler.autoscaling/web autoscaled\n');
    const v1 = await get('horizontalpodautoscalers.v1.autoscaling/web');
    assert.equal(at(v1, 'apiVersion'), 'autoscaling/v1');
    assert.deepEqual(at(v1, 'spec'), {
      maxReplicas: 5, minReplicas: 2, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      targetCPUUtilizationPercentage: 70,
    });
    assert.deepEqual(at(v1, 'status'), { currentReplicas: 0, desiredReplicas: 0 });
    const v2 = await get('horizontalpodautoscalers.v2.autoscaling/web');
    assert.equal(at(v2, 'apiVersion'), 'autoscaling/v2');
    assert.deepEqual(at(v2, 'spec'), {
      maxReplicas: 5, minReplicas: 2, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    });
    assert.deepEqual(at(v2, 'status'), { currentMetrics: null, desiredReplicas: 0 });
    const t = table(await ok(['get', 'hpa', '-n', NS]));
    assert.equal(t.header, 'NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE');
    assert.deepEqual(t.rows, [['web', 'Deployment/web', 'cpu: <unknown>/70%', '2', '5', '0', 'AGE']]);
  });

  it('set image and rollout pause|resume|restart edit the template', async () => {
    assert.equal(await ok(['set', 'image', 'deploy/web', 'nginx=nginx:1.27', '-n', NS]), 'deployment.apps/web image updated\n');
    let d = await get('deployment/web');
    assert.equal(at(d, 'spec', 'template', 'spec', 'containers', 0, 'image'), 'nginx:1.27');
    assert.equal(at(d, 'metadata', 'generation'), 3);

    assert.equal(await ok(['rollout', 'pause', 'deploy/web', '-n', NS]), 'deployment.apps/web paused\n');
    d = await get('deployment/web');
    assert.equal(at(d, 'spec', 'paused'), true);
    const again = await s.kubectl(['rollout', 'pause', 'deploy/web', '-n', NS]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, 'error: deployments.apps "web" is already paused\n');

    assert.equal(await ok(['rollout', 'resume', 'deploy/web', '-n', NS]), 'deployment.apps/web resumed\n');
    d = await get('deployment/web');
    assert.equal(at(d, 'spec', 'paused'), undefined);

    assert.equal(await ok(['rollout', 'restart', 'deploy/web', '-n', NS]), 'deployment.apps/web restarted\n');
    d = await get('deployment/web');
    const restartedAt = at(d, 'spec', 'template', 'metadata', 'annotations', 'kubectl.kubernetes.io/restartedAt');
    assert.match(String(restartedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
  });

  it('rollout history without ReplicaSets', async () => {
    assert.equal(await ok(['rollout', 'history', 'deploy/web', '-n', NS]), 'deployment.apps/web \nNo rollout history found.\n');
  });

  it('create job generates the selector and controller-uid labels', async () => {
    assert.equal(await ok(['create', 'job', 'j', '--image=busybox', '-n', NS, '--', 'echo', 'hi']), 'job.batch/j created\n');
    const j = await get('job/j');
    const uid = String(at(j, 'metadata', 'uid'));
    assert.deepEqual(at(j, 'spec', 'selector'), { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    assert.deepEqual(at(j, 'spec', 'template', 'metadata', 'labels'), {
      'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'j', 'controller-uid': uid, 'job-name': 'j',
    });
    assert.equal(at(j, 'spec', 'manualSelector'), false);
    assert.equal(at(j, 'spec', 'backoffLimit'), 6);
    assert.equal(at(j, 'spec', 'completions'), 1);
    assert.equal(at(j, 'spec', 'parallelism'), 1);
    assert.equal(at(j, 'spec', 'completionMode'), 'NonIndexed');
    assert.equal(at(j, 'spec', 'suspend'), false);
    assert.equal(at(j, 'spec', 'podReplacementPolicy'), 'TerminatingOrFailed');
    assert.equal(at(j, 'spec', 'template', 'spec', 'restartPolicy'), 'Never');
    assert.deepEqual(at(j, 'spec', 'template', 'spec', 'containers', 0, 'command'), ['echo', 'hi']);

    const t = table(await ok(['get', 'jobs', '-n', NS]));
    assert.equal(t.header, 'NAME   STATUS    COMPLETIONS   DURATION   AGE');
    assert.deepEqual(t.rows, [['j', 'Running', '0/1', 'AGE']], 'DURATION is empty without a start time');
    const w = table(await ok(['get', 'jobs', '-n', NS, '-o', 'wide']));
    assert.equal(w.header, 'NAME   STATUS    COMPLETIONS   DURATION   AGE   CONTAINERS   IMAGES    SELECTOR');
    assert.deepEqual(w.rows, [['j', 'Running', '0/1', 'AGE', 'j', 'busybox', `batch.kubernetes.io/controller-uid=${uid}`]]);
  });

  it('create cronjob', async () => {
    assert.equal(await ok(['create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *', '-n', NS, '--', 'echo']),
      'cronjob.batch/cj created\n');
    const cj = await get('cronjob/cj');
    assert.equal(at(cj, 'spec', 'schedule'), '*/5 * * * *');
    assert.equal(at(cj, 'spec', 'concurrencyPolicy'), 'Allow');
    assert.equal(at(cj, 'spec', 'suspend'), false);
    assert.equal(at(cj, 'spec', 'successfulJobsHistoryLimit'), 3);
    assert.equal(at(cj, 'spec', 'failedJobsHistoryLimit'), 1);
    assert.deepEqual(at(cj, 'spec', 'jobTemplate', 'metadata'), { name: 'cj' });
    assert.equal(at(cj, 'spec', 'jobTemplate', 'spec', 'template', 'spec', 'restartPolicy'), 'OnFailure');
    assert.deepEqual(at(cj, 'spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers', 0, 'command'), ['echo']);

    const t = table(await ok(['get', 'cronjobs', '-n', NS]));
    assert.equal(t.header, 'NAME   SCHEDULE      TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE');
    assert.deepEqual(t.rows, [['cj', '*/5 * * * *', '<none>', 'False', '0', '<none>', 'AGE']]);
  });

  it('create role, rolebinding, clusterrole, clusterrolebinding', async () => {
    assert.equal(await ok(['create', 'role', 'r', '--verb=get', '--resource=pods', '-n', NS]), 'role.rbac.authorization.k8s.io/r created\n');
    assert.equal(await ok(['create', 'rolebinding', 'rb', '--role=r', '--user=bob', '-n', NS]),
      'rolebinding.rbac.authorization.k8s.io/rb created\n');
    assert.equal(await ok(['create', 'clusterrole', 'e2e-cr', '--verb=list', '--resource=nodes']),
      'clusterrole.rbac.authorization.k8s.io/e2e-cr created\n');
    assert.equal(await ok(['create', 'clusterrolebinding', 'e2e-crb', '--clusterrole=e2e-cr', '--group=g']),
      'clusterrolebinding.rbac.authorization.k8s.io/e2e-crb created\n');

    assert.deepEqual(at(await get('role/r'), 'rules'), [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    const rb = await get('rolebinding/rb');
    assert.deepEqual(at(rb, 'roleRef'), { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' });
    assert.deepEqual(at(rb, 'subjects'), [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }]);
    assert.deepEqual(at(await get('clusterrole/e2e-cr', null), 'rules'), [{ apiGroups: [''], resources: ['nodes'], verbs: ['list'] }]);
    const crb = await get('clusterrolebinding/e2e-crb', null);
    assert.deepEqual(at(crb, 'roleRef'), { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'e2e-cr' });
    assert.deepEqual(at(crb, 'subjects'), [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'g' }]);

    const roles = lines(await ok(['get', 'roles', '-n', NS]));
    assert.equal(roles[0], 'NAME   CREATED AT');
    assert.match(roles[1] ?? '', /^r {6}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const rbs = table(await ok(['get', 'rolebindings', '-n', NS, '-o', 'wide']));
    assert.equal(rbs.header, 'NAME   ROLE     AGE   USERS   GROUPS   SERVICEACCOUNTS');
    assert.deepEqual(rbs.rows, [['rb', 'Role/r', 'AGE', 'bob']]);
    const cr = lines(await ok(['get', 'clusterrole', 'e2e-cr']));
    assert.equal(cr[0], 'NAME     CREATED AT');
    assert.match(cr[1] ?? '', /^e2e-cr {3}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const crbs = lines(await ok(['get', 'clusterrolebinding', 'e2e-crb', '-o', 'wide']));
    assert.equal(crbs[0], 'NAME      ROLE                 AGE   USERS   GROUPS   SERVICEACCOUNTS');
    assert.match(crbs[1] ?? '', /^e2e-crb {3}ClusterRole\/e2e-cr {3}\S+ +g$/);
  });

  it('create priorityclass', async () => {
    assert.equal(await ok(['create', 'priorityclass', 'high', '--value=1000']), 'priorityclass.scheduling.k8s.io/high created\n');
    const pc = await get('priorityclass/high', null);
    assert.equal(at(pc, 'value'), 1000);
    assert.equal(at(pc, 'preemptionPolicy'), 'PreemptLowerPriority');
    assert.equal(at(pc, 'globalDefault'), undefined);
  });

  it('create ingress', async () => {
    assert.equal(await ok(['create', 'ingress', 'ing', '--rule=foo.com/bar=svc:80', '-n', NS]), 'ingress.networking.k8s.io/ing created\n');
    const ing = await get('ingress/ing');
    assert.deepEqual(at(ing, 'spec'), {
      rules: [{ host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact',
        backend: { service: { name: 'svc', port: { number: 80 } } } }] } }],
    });
    // IngressStatus.loadBalancer is a struct: Go always writes it.
    assert.deepEqual(at(ing, 'status'), { loadBalancer: {} });
    const t = table(await ok(['get', 'ingress', '-n', NS]));
    assert.equal(t.header, 'NAME   CLASS    HOSTS     ADDRESS   PORTS   AGE');
    assert.deepEqual(t.rows, [['ing', '<none>', 'foo.com', '80', 'AGE']]);
  });

  it('create pdb', async () => {
    assert.equal(await ok(['create', 'pdb', 'pdb', '--selector=app=web', '--min-available=1', '-n', NS]),
      'poddisruptionbudget.policy/pdb created\n');
    const pdb = await get('pdb/pdb');
    assert.deepEqual(at(pdb, 'spec'), { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    assert.deepEqual(at(pdb, 'status'), { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
    const t = table(await ok(['get', 'pdb', '-n', NS]));
    assert.equal(t.header, 'NAME   MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE');
    assert.deepEqual(t.rows, [['pdb', '1', 'N/A', '0', 'AGE']]);
  });

  it('a core/v1 Event reads as events.k8s.io/v1', async () => {
    const ev = {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1', namespace: NS },
      involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: NS },
      reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-1 to 2', type: 'Normal',
      source: { component: 'deployment-controller' },
      firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:01:00Z', count: 3,
    };
    assert.equal(await ok(['create', '-f', '-'], JSON.stringify(ev)), 'event/web.1 created\n');
    const e = await get('events.v1.events.k8s.io/web.1');
    assert.equal(at(e, 'apiVersion'), 'events.k8s.io/v1');
    assert.equal(at(e, 'note'), 'Scaled up replica set web-1 to 2');
    assert.equal(at(e, 'reason'), 'ScalingReplicaSet');
    assert.equal(at(e, 'type'), 'Normal');
    assert.deepEqual(at(e, 'regarding'), ev.involvedObject);
    assert.deepEqual(at(e, 'deprecatedSource'), { component: 'deployment-controller' });
    assert.equal(at(e, 'deprecatedFirstTimestamp'), '2026-01-01T00:00:00Z');
    assert.equal(at(e, 'deprecatedLastTimestamp'), '2026-01-01T00:01:00Z');
    assert.equal(at(e, 'deprecatedCount'), 3);
    for (const k of ['message', 'involvedObject', 'source', 'firstTimestamp', 'lastTimestamp', 'count']) {
      assert.equal(at(e, k), undefined, k);
    }
    const t = table(await ok(['get', 'events.v1.events.k8s.io', '-n', NS]));
    assert.equal(t.header, 'LAST SEEN   TYPE     REASON              OBJECT           MESSAGE');
    assert.deepEqual(t.rows, [['AGE', 'Normal', 'ScalingReplicaSet', 'deployment/web', 'Scaled up replica set web-1 to 2']]);
  });
});
