// CEL expressions (testing/cel-expression-corpus.ts) judged as kube-apiserver v1.36 judges them:
// compile errors in ValidatingAdmissionPolicy validations and CRD rules, runtime errors of CRD rules.
// Compared with kube's recorded answers (testing/fixtures/cel-expressions-kube.json) and, when the
// oracle is built, the live server.
import { CASES, prepare, setup } from './testing/cel-expression-corpus.ts';
import { describeValidationCorpus } from './testing/validation-differential.ts';

describeValidationCorpus({
  title: 'CEL expressions',
  cases: CASES,
  fixture: new URL('./testing/fixtures/cel-expressions-kube.json', import.meta.url),
  setup: () => setup(),
  prepare,
  // kube names self's type selfType<nanoseconds> anew on each compilation.
  causeMessage: (m) => m.replace(/selfType\d+/g, 'selfTypeN'),
});
