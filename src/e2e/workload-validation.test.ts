// Workload validation against kube-apiserver v1.36: the corpus of testing/workload-validation-corpus.ts
// (Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision, Job, CronJob, HPA v1/v2, PDB)
// is compared with kube's recorded answers (fixtures/workload-validation-kube.json) everywhere, and
// with the live oracle where it is built.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { WORKLOAD_CASES } from './testing/workload-validation-corpus.ts';

describeValidationCorpus({
  title: 'workload validation',
  cases: WORKLOAD_CASES,
  fixture: new URL('./testing/fixtures/workload-validation-kube.json', import.meta.url),
});
