// The APIService objects of the group versions this server serves itself (kube's autoregister
// controller): `v1.`, `v1.apps`, ..., with spec.service unset (Local) and Available.
import { isAlreadyExists } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { Store } from '../registry/generic/store.ts';
import { nowRFC3339 } from '../registry/generic/names.ts';
import { stabilityOf } from './runtime-config.ts';

/** kube-apiserver's group priorities (the order of /apis). */
const GROUP_PRIORITY: Readonly<Record<string, number>> = {
  '': 18000, 'apiregistration.k8s.io': 18000, apps: 17800, 'events.k8s.io': 17750, 'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600, autoscaling: 17500, batch: 17400, 'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200, policy: 17100, 'rbac.authorization.k8s.io': 17000, 'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700, 'apiextensions.k8s.io': 16700, 'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500, 'node.k8s.io': 16300, 'discovery.k8s.io': 16200,
  'flowcontrol.apiserver.k8s.io': 16100, 'internal.apiserver.k8s.io': 16000, 'resource.k8s.io': 15900,
  'storagemigration.k8s.io': 15800,
};

/** GA versions rank above betas, betas above alphas; autoscaling/v2 above autoscaling/v1. */
function versionPriority(group: string, version: string): number {
  if (group === 'autoscaling' && version === 'v2') return 30;
  if (group === 'flowcontrol.apiserver.k8s.io' && version === 'v1') return 21;
  switch (stabilityOf(version)) {
    case 'ga': return group === '' ? 1 : 15;
    case 'beta': return 9;
    default: return 1;
  }
}

export async function registerLocalAPIServices(apiServices: Store<KubeObject>, groups: readonly DiscoveryGroup[]): Promise<void> {
  const ctx = systemContext('');
  for (const g of groups) {
    for (const v of g.versions) {
      const name = `${v.version}.${g.name}`;
      const obj = {
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' } },
        spec: { group: g.name, version: v.version, groupPriorityMinimum: GROUP_PRIORITY[g.name] ?? 1000, versionPriority: versionPriority(g.name, v.version) },
      };
      try {
        await apiServices.create(ctx, obj as KubeObject, undefined, { dryRun: false });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
      // Served right here: available at once.
      await apiServices.updateUnchecked(ctx, name, (cur) => ({
        ...cur,
        status: { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: nowRFC3339(), reason: 'Local', message: 'Local APIServices are always available' }] },
      }) as KubeObject, { dryRun: false });
    }
  }
}
