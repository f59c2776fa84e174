// Workload validation against kube-apiserver v1.36: the corpus of testing/workload-validation-corpus.ts
// (Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision, Job, CronJob, HPA v1/v2, PDB)
// is compared with kube's recorded answers (fixtures/workload-validation-kube.json) everywhere, and
// with the live oracle where it is built.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { WORKLOAD_CASES } from './testing/workload-validation-corpus.ts';

/** A Job's generated selector and labels carry its UID, new on every run. */
const UID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

describeValidationCorpus({
  title: 'workload validation',
  cases: WORKLOAD_CASES,
  causeMessage: (m) => m.replace(UID, '<uid>'),
  fixture: new URL('./testing/fixtures/workload-validation-kube.json', import.meta.url),
});
