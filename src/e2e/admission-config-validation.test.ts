// admissionregistration.k8s.io validation against kube-apiserver v1.36: webhook configurations,
// admission policies and their bindings (testing/admission-config-validation-corpus.ts), compared
// with kube's recorded answers and, where the oracle is built, with the live kube-apiserver.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { ADMISSION_CONFIG_CASES } from './testing/admission-config-validation-corpus.ts';

describeValidationCorpus({
  title: 'admissionregistration validation',
  cases: ADMISSION_CONFIG_CASES,
  fixture: new URL('./testing/fixtures/admission-config-validation-kube.json', import.meta.url),
});
