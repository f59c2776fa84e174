// Cluster configuration validation against kube-apiserver v1.36: CertificateSigningRequests,
// Leases, FlowSchemas, PriorityLevelConfigurations, Events and the access reviews
// (testing/cluster-config-validation-corpus.ts), compared with kube's recorded answers and, where
// the oracle is built, with the live kube-apiserver.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { CLUSTER_CONFIG_CASES } from './testing/cluster-config-validation-corpus.ts';

/** A review's metadata in a message carries its managedFields, with the time of the request. */
const TIME = /"time":"[0-9T:Z-]+"/g;

describeValidationCorpus({
  title: 'cluster configuration validation',
  cases: CLUSTER_CONFIG_CASES,
  causeMessage: (m) => m.replace(TIME, '"time":"<time>"'),
  fixture: new URL('./testing/fixtures/cluster-config-validation-kube.json', import.meta.url),
});
