// Validation of the core/v1 kinds beside Pod spec, Service, Endpoints, PV and PVC, against kube-apiserver
// v1.36: Namespace, Node, ConfigMap, Secret, ServiceAccount, LimitRange, ResourceQuota,
// ReplicationController, PodTemplate and Binding (testing/core-validation-corpus*.ts). kube's answers are
// recorded in testing/fixtures/core-validation-kube.json; see testing/validation-differential.ts.
import { CORE_CASES } from './testing/core-validation-corpus.ts';
import { POLICY_CASES } from './testing/core-validation-corpus-policy.ts';
import { describeValidationCorpus, post } from './testing/validation-differential.ts';

describeValidationCorpus({
  title: 'core/v1 validation',
  cases: [...CORE_CASES, ...POLICY_CASES],
  fixture: new URL('./testing/fixtures/core-validation-kube.json', import.meta.url),
  // pods/binding needs pods, which need the namespace's default service account (no controller here)
  setup: (ns) => [post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } })],
});
