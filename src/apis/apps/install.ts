// The apps group: apps/v1 is its only served version (the hub and storage version).
// Counterpart of pkg/registry/apps/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { controllerRevisions } from './controllerrevision/controllerrevision.ts';
import { daemonSets } from './daemonset/daemonset.ts';
import { deployments } from './deployment/deployment.ts';
import { replicaSets } from './replicaset/replicaset.ts';
import { statefulSets } from './statefulset/statefulset.ts';

export const appsGroup: APIGroupDefinition = {
  group: 'apps',
  versions: [{
    version: 'v1',
    resources: [controllerRevisions, daemonSets, deployments, replicaSets, statefulSets],
  }],
};
