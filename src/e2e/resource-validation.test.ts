// resource.k8s.io/v1 validation against kube-apiserver v1.36 (issue 12): DeviceClass, ResourceClaim
// (with its status), ResourceClaimTemplate and ResourceSlice, one case per rule of kube's
// validation (testing/resource-validation-corpus.ts, resource-status-corpus.ts: claim status and admin access). kube's answers are recorded in
// testing/fixtures/resource-validation-kube.json and compared everywhere; the live oracle is asked
// as well where it is built.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { RESOURCE_CASES } from './testing/resource-validation-corpus.ts';
import { RESOURCE_STATUS_CASES, resourceStatusSetup } from './testing/resource-status-corpus.ts';

describeValidationCorpus({
  title: 'resource.k8s.io validation',
  cases: [...RESOURCE_CASES, ...RESOURCE_STATUS_CASES],
  setup: resourceStatusSetup,
  fixture: new URL('./testing/fixtures/resource-validation-kube.json', import.meta.url),
});
