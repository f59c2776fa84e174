// Bad authorization and webhook token authentication flags and files stop kapi at start-up with
// kube-apiserver v1.36.3's messages: --authorization-mode lists, the legacy webhook flags,
// --authorization-config (decoding, every validation rule, mutual exclusion) and the webhook
// kubeconfigs. The expected texts were read from kube-apiserver; when its build is cached, each
// case is also run against it.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../cli/serve.ts';
import { oracleUnavailable } from './testing/oracle.ts';
import { kubeStartupError } from './testing/startup-error.ts';

const NAME_RULE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const KUBECONFIG = (server: string, more = ''): string => `apiVersion: v1
kind: Config
clusters:
- name: wh
  cluster:
    server: ${server}
    insecure-skip-tls-verify: true${more}
users:
- name: u
  user: {}
contexts:
- name: c
  context: {cluster: wh, user: u}
current-context: c
`;

/** Files each case may name as `$DIR/<name>`. */
const FILES: Readonly<Record<string, string>> = {
  'wh.kubeconfig': KUBECONFIG('https://127.0.0.1:9/authz'),
  'empty.kubeconfig': 'apiVersion: v1\nkind: Config\n',
  'no-context.kubeconfig': KUBECONFIG('https://127.0.0.1:9/authz').replace('current-context: c', 'current-context: d'),
  'no-ca.kubeconfig': KUBECONFIG('https://127.0.0.1:9/authz', '\n    certificate-authority: /nonexistent/ca.crt'),
  'many-errors.yaml': `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: Bad_Name
  webhook:
    timeout: 40s
    subjectAccessReviewVersion: v2
    failurePolicy: Maybe
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: rel.kubeconfig
    matchConditions:
    - expression: "request.foo == 1"
    - expression: "'x'"
- type: RBAC
  name: rbac
- type: RBAC
  name: rbac2
- type: Foo
  name: foo
- type: Node
  name: node
  webhook: {}
`,
  'more-errors.yaml': `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: w1
  webhook:
    subjectAccessReviewVersion: v1
    failurePolicy: Deny
    authorizedTTL: -1s
    connectionInfo:
      type: InClusterConfig
- type: Webhook
- type: Webhook
  name: w1
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1beta1
    matchConditionSubjectAccessReviewVersion: v1beta1
    failurePolicy: NoOpinion
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: $DIR/nonexistent
    matchConditions:
    - expression: "  "
    - expression: "request.user == 'a'"
    - expression: "request.user == 'a'"
- type: Webhook
  name: w3
- name: x
- type: RBAC
  name: RBAC
`,
  'no-authorizers.yaml': 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n',
  'v2.yaml': 'apiVersion: apiserver.config.k8s.io/v2\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n',
  'unknown-field.yaml': 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n  unknownField: 1\n',
  'no-api-version.yaml': 'kind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n',
  'wrong-names.yaml': 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: roles\n- type: Node\n  name: nodes\n',
  'wrong-name.yaml': 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: AlwaysAllow\n  name: allow\n',
  'abac-type.jsonl': '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"alice","readonly":"yes"}}\n',
  'abac-v0-type.jsonl': '{"user":"alice","readonly":1}\n',
  'abac-v2.jsonl': '{"apiVersion": "abac.authorization.kubernetes.io/v2", "kind": "Policy", "spec": {"user":"a"}}\n',
  'abac-syntax.jsonl': '# a comment\n\n{"user":"a"\n',
  'abac-kind.jsonl': '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Other","spec":{}}\n',
  'foo-kind.yaml': 'apiVersion: apiserver.config.k8s.io/v1\nkind: Foo\nauthorizers:\n- type: RBAC\n  name: rbac\n',
  'empty-kubeconfig-webhook.yaml': `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: w1
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: $DIR/empty.kubeconfig
`,
};

interface Case { readonly name: string; readonly flags: readonly string[]; readonly want: string }

const CASES: readonly Case[] = [
  { name: 'Webhook mode without its kubeconfig', flags: ['--authorization-mode', 'Webhook'], want: "authorization-mode Webhook's authorization config file not passed" },
  {
    name: 'an unknown and a repeated mode', flags: ['--authorization-mode', 'RBAC,Foo,RBAC'],
    want: '[authorization-mode "Foo" is not a valid mode, authorization-mode ["RBAC" "Foo" "RBAC"] has mode specified more than once]',
  },
  {
    name: 'a webhook kubeconfig without Webhook mode', flags: ['--authorization-mode', 'RBAC', '--authorization-webhook-config-file', '$DIR/wh.kubeconfig'],
    want: 'cannot specify --authorization-webhook-config-file without mode Webhook',
  },
  {
    name: '--authorization-config with --authorization-mode', flags: ['--authorization-config', '$DIR/no-authorizers.yaml', '--authorization-mode', 'RBAC'],
    want: '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
  },
  {
    name: '--authorization-config with a legacy webhook flag', flags: ['--authorization-config', '$DIR/no-authorizers.yaml', '--authorization-webhook-version', 'v1'],
    want: '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
  },
  { name: 'a missing --authorization-config file', flags: ['--authorization-config', '$DIR/nonexistent.yaml'], want: 'open $DIR/nonexistent.yaml: no such file or directory' },
  {
    name: 'every kind of authorizer and webhook error', flags: ['--authorization-config', '$DIR/many-errors.yaml'],
    want: `[authorizers[0].name: Invalid value: "Bad_Name": authorizer name is invalid: ${NAME_RULE}, authorizers[0].timeout: Invalid value: "40s": must be > 0s and <= 30s, authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1", authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified, authorizers[0].failurePolicy: Unsupported value: "Maybe": supported values: "NoOpinion", "Deny", authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "rel.kubeconfig": must be an absolute path, authorizers[0].matchConditions[0].expression: Invalid value: "request.foo == 1": compilation failed: ERROR: <input>:1:8: undefined field 'foo'
 | request.foo == 1
 | .......^, authorizers[0].matchConditions[1].expression: Invalid value: "'x'": must evaluate to bool but got string, authorizers[2].type: Duplicate value: "RBAC", authorizers[3].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook", authorizers[4].webhook: Invalid value: "non-null": may only be specified when type=Webhook]`,
  },
  {
    name: 'required fields, TTLs, names, versions, kubeconfig files and duplicate conditions', flags: ['--authorization-config', '$DIR/more-errors.yaml'],
    want: `[authorizers[0].timeout: Required value, authorizers[0].authorizedTTL: Invalid value: "-1s": must be > 0s, authorizers[1].name: Required value, authorizers[1].webhook: Required value: required when type=Webhook, authorizers[2].name: Duplicate value: "w1", authorizers[2].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1", authorizers[2].connectionInfo.kubeConfigFile: Invalid value: "$DIR/nonexistent": error loading file: stat $DIR/nonexistent: no such file or directory, authorizers[2].matchConditions[0].expression: Required value, authorizers[2].matchConditions[2].expression: Duplicate value: "request.user == 'a'", authorizers[3].webhook: Required value: required when type=Webhook, authorizers[4].type: Required value, authorizers[5].name: Invalid value: "RBAC": authorizer name is invalid: ${NAME_RULE}]`,
  },
  {
    name: 'non-webhook authorizers not named after their types', flags: ['--authorization-config', '$DIR/wrong-names.yaml'],
    want: '[expected name rbac for authorizer RBAC instead of roles, expected name node for authorizer Node instead of nodes]',
  },
  { name: 'an AlwaysAllow authorizer named otherwise', flags: ['--authorization-config', '$DIR/wrong-name.yaml'], want: 'expected name alwaysallow for authorizer AlwaysAllow instead of allow' },
  { name: 'ABAC without a policy file', flags: ['--authorization-mode', 'ABAC'], want: "authorization-mode ABAC's authorization policy file not passed" },
  { name: 'a policy file without ABAC', flags: ['--authorization-mode', 'RBAC', '--authorization-policy-file', '$DIR/abac-kind.jsonl'], want: 'cannot specify --authorization-policy-file without mode ABAC' },
  { name: 'a missing ABAC policy file', flags: ['--authorization-mode', 'ABAC', '--authorization-policy-file', '$DIR/nonexistent.jsonl'], want: 'invalid authorization config: open $DIR/nonexistent.jsonl: no such file or directory' },
  {
    name: 'an ABAC policy of the wrong field type', flags: ['--authorization-mode', 'ABAC', '--authorization-policy-file', '$DIR/abac-type.jsonl'],
    want: `invalid authorization config: error reading policy file $DIR/abac-type.jsonl, line 1: ${(FILES['abac-type.jsonl'] ?? '').trim()}: json: cannot unmarshal string into Go struct field PolicySpec.spec.readonly of type bool`,
  },
  {
    name: 'an unversioned ABAC policy of the wrong field type', flags: ['--authorization-mode', 'ABAC', '--authorization-policy-file', '$DIR/abac-v0-type.jsonl'],
    want: `invalid authorization config: error reading policy file $DIR/abac-v0-type.jsonl, line 1: ${(FILES['abac-v0-type.jsonl'] ?? '').trim()}: json: cannot unmarshal number into Go struct field Policy.readonly of type bool`,
  },
  {
    name: 'an ABAC policy of an unknown version', flags: ['--authorization-mode', 'ABAC', '--authorization-policy-file', '$DIR/abac-v2.jsonl'],
    want: `invalid authorization config: error reading policy file $DIR/abac-v2.jsonl, line 1: ${(FILES['abac-v2.jsonl'] ?? '').trim()}: no kind "Policy" is registered for version "abac.authorization.kubernetes.io/v2" in scheme "pkg/runtime/scheme.go:111"`,
  },
  {
    name: 'an ABAC policy line that is not JSON', flags: ['--authorization-mode', 'ABAC', '--authorization-policy-file', '$DIR/abac-syntax.jsonl'],
    want: 'invalid authorization config: error reading policy file $DIR/abac-syntax.jsonl, line 3: {"user":"a": couldn\'t get version/kind; json parse error: unexpected end of JSON input',
  },
  {
    name: 'an ABAC object of another kind', flags: ['--authorization-mode', 'ABAC', '--authorization-policy-file', '$DIR/abac-kind.jsonl'],
    want: `invalid authorization config: error reading policy file $DIR/abac-kind.jsonl, line 1: ${(FILES['abac-kind.jsonl'] ?? '').trim()}: no kind "Other" is registered for version "abac.authorization.kubernetes.io/v1beta1" in scheme "pkg/runtime/scheme.go:111"`,
  },
  { name: 'no authorizers', flags: ['--authorization-config', '$DIR/no-authorizers.yaml'], want: 'authorizers: Required value: at least one authorization mode must be defined' },
  {
    name: 'an unknown version', flags: ['--authorization-config', '$DIR/v2.yaml'],
    want: 'failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "pkg/runtime/scheme.go:111"',
  },
  {
    name: 'an unknown field', flags: ['--authorization-config', '$DIR/unknown-field.yaml'],
    want: 'failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].unknownField"',
  },
  {
    name: 'no apiVersion', flags: ['--authorization-config', '$DIR/no-api-version.yaml'],
    want: `failed to load AuthorizationConfiguration from file: Object 'apiVersion' is missing in '${FILES['no-api-version.yaml'] ?? ''}'`,
  },
  {
    name: 'another kind', flags: ['--authorization-config', '$DIR/foo-kind.yaml'],
    want: 'failed to load AuthorizationConfiguration from file: no kind "Foo" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"',
  },
  {
    name: 'a webhook whose kubeconfig is empty', flags: ['--authorization-config', '$DIR/empty-kubeconfig-webhook.yaml'],
    want: 'invalid authorization config: invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable',
  },
  {
    name: 'a legacy webhook of an unknown SubjectAccessReview version',
    flags: ['--authorization-mode', 'Webhook,RBAC', '--authorization-webhook-config-file', '$DIR/wh.kubeconfig', '--authorization-webhook-version', 'v2'],
    want: 'invalid authorization config: unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"',
  },
  {
    name: 'a legacy webhook with a missing kubeconfig', flags: ['--authorization-mode', 'Webhook', '--authorization-webhook-config-file', '$DIR/nonexistent'],
    want: 'invalid authorization config: stat $DIR/nonexistent: no such file or directory',
  },
  { name: 'a token webhook with a missing kubeconfig', flags: ['--authentication-token-webhook-config-file', '$DIR/nonexistent'], want: 'stat $DIR/nonexistent: no such file or directory' },
  {
    name: 'a token webhook of an unknown TokenReview version', flags: ['--authentication-token-webhook-config-file', '$DIR/wh.kubeconfig', '--authentication-token-webhook-version', 'v3'],
    want: 'unsupported authentication webhook version "v3", supported versions are "v1", "v1beta1"',
  },
  {
    name: 'a token webhook kubeconfig without configuration', flags: ['--authentication-token-webhook-config-file', '$DIR/empty.kubeconfig'],
    want: 'invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable',
  },
  {
    name: 'a token webhook kubeconfig whose context is missing', flags: ['--authentication-token-webhook-config-file', '$DIR/no-context.kubeconfig'],
    want: 'invalid configuration: [context was not found for specified context: d, cluster has no server defined]',
  },
  {
    name: 'a token webhook kubeconfig whose CA file is missing', flags: ['--authentication-token-webhook-config-file', '$DIR/no-ca.kubeconfig'],
    want: 'invalid configuration: unable to read certificate-authority /nonexistent/ca.crt for wh due to open /nonexistent/ca.crt: no such file or directory',
  },
];

describe('authorization and token webhook start-up errors', () => {
  let dir: string;
  const expand = (s: string): string => s.replaceAll('$DIR', dir);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-authz-startup-'));
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(dir, name), expand(text));
  });
  after(async () => { await rm(dir, { recursive: true, force: true }); });

  for (const c of CASES) {
    it(`kapi refuses ${c.name}`, async () => {
      await assert.rejects(startServer({ flags: c.flags.map(expand) }), (err: Error) => {
        assert.equal(err.message, expand(c.want));
        return true;
      });
    });
  }

  it('kapi refuses InClusterConfig (it never runs in a pod; kube-apiserver v1.36.3 crashes there)', async () => {
    const path = join(dir, 'in-cluster.yaml');
    await writeFile(path, expand(FILES['empty-kubeconfig-webhook.yaml'] ?? '').replace(/type: KubeConfigFile\n\s*kubeConfigFile: .*\n/, 'type: InClusterConfig\n'));
    await assert.rejects(startServer({ flags: ['--authorization-config', path] }),
      /^Error: invalid authorization config: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined$/);
  });

  const skip = oracleUnavailable();
  it('kube-apiserver v1.36.3 stops with the same messages', { skip }, async () => {
    const diffs: string[] = [];
    for (const c of CASES) {
      const got = await kubeStartupError(c.flags.map(expand));
      if (got !== expand(c.want)) diffs.push(`${c.name}: kube ${JSON.stringify(got)}`);
    }
    assert.deepEqual(diffs, []);
  });
});
