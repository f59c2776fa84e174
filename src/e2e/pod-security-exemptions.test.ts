// PodSecurity with a configuration file against kube-apiserver v1.36: defaults and exemptions
// (users, namespaces, runtime classes) from --admission-control-config-file, and the warning for
// labelling an exempt namespace (testing/pod-security-exemptions-corpus.ts). Compared with kube's
// recorded answers (fixtures/pod-security-exemptions-kube.json) and, when built, the live oracle.
import { EXEMPTION_CASES, exemptionsSetup, podSecurityConfigFile } from './testing/pod-security-exemptions-corpus.ts';
import { describeValidationCorpus } from './testing/validation-differential.ts';

const config = podSecurityConfigFile();
const flags = ['--allow-privileged=true', '--admission-control-config-file', config];

describeValidationCorpus({
  title: 'PodSecurity configuration and exemptions',
  cases: EXEMPTION_CASES,
  setup: () => exemptionsSetup(),
  kapiFlags: flags,
  oracleFlags: flags,
  fixture: new URL('./testing/fixtures/pod-security-exemptions-kube.json', import.meta.url),
});
