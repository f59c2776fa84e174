// The batch API group: batch/v1 jobs and cronjobs (batch/v1beta1 is no longer served).
// Counterpart of pkg/registry/batch/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { cronJobs } from './cronjob/cronjob.ts';
import { jobs } from './job/job.ts';

export const batchGroup: APIGroupDefinition = {
  group: 'batch',
  versions: [{ version: 'v1', resources: [jobs, cronJobs] }],
};
