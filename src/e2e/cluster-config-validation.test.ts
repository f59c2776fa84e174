// Cluster configuration validation against kube-apiserver v1.36: CertificateSigningRequests,
// Leases, FlowSchemas, PriorityLevelConfigurations and Events
// (testing/cluster-config-validation-corpus.ts), compared with kube's recorded answers and, where
// the oracle is built, with the live kube-apiserver.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { CLUSTER_CONFIG_CASES } from './testing/cluster-config-validation-corpus.ts';

describeValidationCorpus({
  title: 'cluster configuration validation',
  cases: CLUSTER_CONFIG_CASES,
  fixture: new URL('./testing/fixtures/cluster-config-validation-kube.json', import.meta.url),
});
