// Quantities as JSON numbers and in HPA v1 metric annotations against kube-apiserver v1.36
// (issue 12): testing/quantity-number-corpus.ts. kube's answers are recorded in
// testing/fixtures/quantity-validation-kube.json and compared everywhere; the live oracle is
// asked as well where it is built.
import { describeValidationCorpus, post } from './testing/validation-differential.ts';
import { HPA_ANNOTATION_CASES, QUANTITY_NUMBER_CASES } from './testing/quantity-number-corpus.ts';

describeValidationCorpus({
  title: 'quantity validation',
  cases: [...QUANTITY_NUMBER_CASES, ...HPA_ANNOTATION_CASES],
  // the ServiceAccount admission plugin needs the namespace's default account (no controller makes it)
  setup: (ns) => [post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } })],
  fixture: new URL('./testing/fixtures/quantity-validation-kube.json', import.meta.url),
});
