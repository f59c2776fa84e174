// The batch API group: batch/v1 jobs and cronjobs (batch/v1beta1 is no longer served).
// Counterpart of pkg/registry/batch/rest.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { cronJobs } from './cronjob/cronjob.ts';
import { jobs } from './job/job.ts';

const erase = <T extends KubeObject>(d: ResourceDefinition<T>): ResourceDefinition<KubeObject> =>
  d as unknown as ResourceDefinition<KubeObject>;

export const batchGroup: APIGroupDefinition = {
  group: 'batch',
  versions: [{ version: 'v1', resources: [erase(jobs), erase(cronJobs)] }],
};
