// The Pod's own non-spec paths against kube-apiserver v1.36: status updates, the ephemeralcontainers
// and resize subresources, pod updates and pod-level resources (testing/pod-status-validation-corpus.ts).
// kube's answers are recorded in testing/fixtures/pod-status-validation-kube.json.
import { POD_STATUS_CASES } from './testing/pod-status-validation-corpus.ts';
import { describeValidationCorpus, post } from './testing/validation-differential.ts';

describeValidationCorpus({
  title: 'pod status, subresource and update validation',
  cases: POD_STATUS_CASES,
  fixture: new URL('./testing/fixtures/pod-status-validation-kube.json', import.meta.url),
  // the namespace's default service account, which the ServiceAccount admission plugin requires
  // kube prints the internal Go struct in its spec diffs (`"Args": null`), kapi the v1 JSON: only the
  // text before the diff is compared.
  causeMessage: (m) => m.split('\n')[0] ?? '',
  setup: (ns) => [post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } })],
});
