// The zero values Go's JSON encoder writes for the statuses and structs of the main kinds (fields
// without omitempty, and structs, which omitempty never drops), as read back after a create or a
// status update that left them out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { DeepReadonly, Strategy } from '../../registry/rest/strategy.ts';
import type { StatefulSet } from '../apps/v1/types.ts';
import { daemonSets } from '../apps/daemonset/daemonset.ts';
import { deployments } from '../apps/deployment/deployment.ts';
import { replicaSets } from '../apps/replicaset/replicaset.ts';
import { statefulSets } from '../apps/statefulset/statefulset.ts';
import { horizontalPodAutoscalerStatusStrategy, horizontalPodAutoscalerStrategy } from '../autoscaling/horizontalpodautoscaler/horizontalpodautoscaler.ts';
import type { HorizontalPodAutoscaler } from '../autoscaling/v2/types.ts';
import { ingresses } from '../networking/ingress/ingress.ts';
import { podDisruptionBudgets } from '../policy/poddisruptionbudget/poddisruptionbudget.ts';
import { nodes } from './node/node.ts';
import { replicationControllers } from './replicationcontroller/replicationcontroller.ts';

const ctx = systemContext('default');

/** What a create stores: prepareForCreate, then canonicalize (as the Store runs them). */
function created<T extends KubeObject>(s: Strategy<T>, obj: T): T {
  const o = structuredClone(obj);
  s.prepareForCreate(ctx, o);
  s.canonicalize?.(o);
  return o;
}

/** What a status update stores. */
function statusUpdated<T extends KubeObject>(s: Strategy<T>, obj: T, old: T): T {
  const o = structuredClone(obj);
  s.prepareForUpdate(ctx, o, old as DeepReadonly<T>);
  s.canonicalize?.(o);
  return o;
}

const meta = { name: 'x', namespace: 'default' };
const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
const workloadSpec = { selector: { matchLabels: { app: 'a' } }, template };

describe('zero values Go always writes', () => {
  const cases: { name: string; strategy: Strategy<KubeObject>; obj: KubeObject; want: unknown }[] = [
    { name: 'StatefulSet status', strategy: statefulSets.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: workloadSpec } as KubeObject, want: { replicas: 0, availableReplicas: 0 } },
    { name: 'ReplicaSet status', strategy: replicaSets.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: workloadSpec } as KubeObject, want: { replicas: 0 } },
    { name: 'DaemonSet status', strategy: daemonSets.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: workloadSpec } as KubeObject, want: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } },
    { name: 'Deployment status (every counter omitempty)', strategy: deployments.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: workloadSpec } as KubeObject, want: {} },
    { name: 'ReplicationController status', strategy: replicationControllers.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: { template } } as KubeObject, want: { replicas: 0 } },
    { name: 'Ingress status', strategy: ingresses.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } } as KubeObject, want: { loadBalancer: {} } },
    { name: 'PodDisruptionBudget status', strategy: podDisruptionBudgets.strategy as unknown as Strategy<KubeObject>,
      obj: { metadata: meta, spec: {} } as KubeObject, want: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } },
  ];
  for (const c of cases) {
    it(`${c.name} on create`, () => assert.deepEqual((created(c.strategy, c.obj) as { status?: unknown }).status, c.want));
  }

  it('a status update that leaves counters out, or sets omitempty ones to 0, reads back as Go writes it', () => {
    const old = created(statefulSets.statusStrategy, { metadata: meta, spec: workloadSpec } as StatefulSet);
    const next = { ...structuredClone(old), status: { readyReplicas: 0, currentReplicas: 2, observedGeneration: 0 } };
    assert.deepEqual(statusUpdated(statefulSets.statusStrategy, next, old).status, { currentReplicas: 2, replicas: 0, availableReplicas: 0 });
  });

  it('HorizontalPodAutoscaler (autoscaling/v2) status after a status update that left its counters out', () => {
    const s = horizontalPodAutoscalerStatusStrategy;
    const old = created(horizontalPodAutoscalerStrategy, { metadata: meta, spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 3 } } as HorizontalPodAutoscaler);
    assert.deepEqual(statusUpdated(s, { ...old, status: { currentReplicas: 0 } } as HorizontalPodAutoscaler, old).status, { desiredReplicas: 0, currentMetrics: null });
  });

  it('Node: spec {}, and status with its daemon endpoint port and system info strings', () => {
    const n = created(nodes.strategy, { metadata: { name: 'n1' } });
    assert.deepEqual(n.spec, {});
    assert.deepEqual(n.status, {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '',
        kubeProxyVersion: '', operatingSystem: '', architecture: '' },
    });
    const kubelet = created(nodes.strategy, { metadata: { name: 'n2' }, status: { nodeInfo: { kubeletVersion: 'v1.36.0' }, daemonEndpoints: { kubeletEndpoint: { Port: 10250 } } } });
    assert.equal(kubelet.status?.nodeInfo?.kubeletVersion, 'v1.36.0');
    assert.equal(kubelet.status?.daemonEndpoints?.kubeletEndpoint?.Port, 10250);
  });
});
