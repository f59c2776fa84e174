// The apps group: apps/v1 is its only served version (the hub and storage version).
// Counterpart of pkg/registry/apps/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { controllerRevisions } from './controllerrevision/controllerrevision.ts';
import { daemonSets } from './daemonset/daemonset.ts';
import { deployments } from './deployment/deployment.ts';
import { replicaSets } from './replicaset/replicaset.ts';
import { statefulSets } from './statefulset/statefulset.ts';

/** Erases the object type for a heterogeneous list (each definition is checked by `satisfies`). */
const erase = <T extends KubeObject>(d: ResourceDefinition<T>): ResourceDefinition<KubeObject> =>
  d as unknown as ResourceDefinition<KubeObject>;

export const appsGroup: APIGroupDefinition = {
  group: 'apps',
  versions: [{
    version: 'v1',
    resources: [erase(controllerRevisions), erase(daemonSets), erase(deployments), erase(replicaSets), erase(statefulSets)],
  }],
};
