// scheduling.k8s.io: v1 PriorityClasses; v1alpha2 (off by default) Workloads and PodGroups.
// `systemPriorityClasses()` are the classes the control plane creates at start.
// Counterpart of pkg/registry/scheduling/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { podGroups } from './podgroup/podgroup.ts';
import { priorityClasses } from './priorityclass/priorityclass.ts';
import { workloads } from './workload/workload.ts';

export { systemPriorityClasses } from './priorityclass/system.ts';

export const schedulingGroup: APIGroupDefinition = {
  group: 'scheduling.k8s.io',
  versions: [
    { version: 'v1', resources: [priorityClasses] },
    { version: 'v1alpha2', resources: [podGroups, workloads] },
  ],
};
