// PodSecurity admission against kube-apiserver v1.36: every check of baseline and restricted at
// latest and at the versions where checks change, the enforce/audit/warn modes, namespace label
// validation and the warnings about existing pods, workload resources and pod updates
// (testing/pod-security-corpus*.ts). Compared with kube's recorded answers
// (fixtures/pod-security-kube.json) and, when the oracle is built, the live server.
import { POD_CHECK_CASES, podSecuritySetup } from './testing/pod-security-corpus.ts';
import { POD_SECURITY_NAMESPACE_CASES } from './testing/pod-security-corpus-namespaces.ts';
import { describeValidationCorpus } from './testing/validation-differential.ts';

describeValidationCorpus({
  title: 'PodSecurity admission',
  cases: [...POD_CHECK_CASES, ...POD_SECURITY_NAMESPACE_CASES],
  setup: () => podSecuritySetup(),
  // Privileged containers pass validation, so that PodSecurity is what refuses them.
  kapiFlags: ['--allow-privileged=true'],
  oracleFlags: ['--allow-privileged=true'],
  fixture: new URL('./testing/fixtures/pod-security-kube.json', import.meta.url),
});
