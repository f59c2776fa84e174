// networking.k8s.io/v1 validation against kube-apiserver v1.36: every case of the corpus
// (testing/networking-validation-corpus.ts: Ingress with its status, IngressClass, NetworkPolicy,
// IPAddress, ServiceCIDR with its status) gets kube's code, reason and causes, recorded in
// testing/fixtures/networking-validation-kube.json and checked live when the oracle is built.
import { NETWORKING_CASES } from './testing/networking-validation-corpus.ts';
import { describeValidationCorpus } from './testing/validation-differential.ts';

describeValidationCorpus({
  title: 'networking.k8s.io validation',
  cases: NETWORKING_CASES,
  fixture: new URL('./testing/fixtures/networking-validation-kube.json', import.meta.url),
});
