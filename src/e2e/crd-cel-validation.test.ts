// CRD validation rules (testing/crd-cel-corpus.ts) against kube-apiserver v1.36: CRDs refused for
// their x-kubernetes-validations, custom resources judged by rules at every level, transition rules
// and ratcheting. Compared with kube's recorded answers (testing/fixtures/crd-cel-validation-kube.json)
// and, when the oracle is built, the live server.
import { CASES, prepare, setup } from './testing/crd-cel-corpus.ts';
import { describeValidationCorpus } from './testing/validation-differential.ts';

describeValidationCorpus({
  title: 'CRD validation rules',
  cases: CASES,
  fixture: new URL('./testing/fixtures/crd-cel-validation-kube.json', import.meta.url),
  setup: () => setup(),
  prepare,
  // kube names self's type selfType<nanoseconds> anew on each compilation.
  causeMessage: (m) => m.replace(/selfType\d+/g, 'selfTypeN'),
});
