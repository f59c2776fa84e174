// Bad authentication flags and --authentication-config files stop the server at start with
// kube-apiserver's message. Each message is the one kube v1.36.3 printed for the same input; when
// the oracle is cached, it is asked again and must still agree.
// No Go counterpart: end-to-end tests (kube's: pkg/kubeapiserver/options/authentication_test.go).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseServeFlags } from '../cli/flags.ts';
import { runServer } from '../cli/serve.ts';
import { oracleBuildLocation, oracleUnavailable } from './testing/oracle.ts';

const SA_ISSUER = 'https://kubernetes.default.svc.cluster.local';
const header = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n';

interface Case {
  readonly name: string;
  /** The configuration file's text (written as auth.yaml); `{dir}` in flags names the test's folder. */
  readonly config?: string;
  readonly flags: readonly string[];
  readonly want: string;
}

const BIG = `${header}jwt:
- issuer:
    url: https://x
    discoveryURL: https://x/
    audiences: [a, a]
    audienceMatchPolicy: Foo
    certificateAuthority: "garbage"
  claimValidationRules:
  - claim: c
    requiredValue: v
    message: m
  - claim: c
  - expression: "claims.foo +"
  - expression: "1"
  - {}
  - claim: x
    expression: "claims.y"
  claimMappings:
    username:
      expression: "claims.email"
      prefix: "p"
    groups:
      claim: g
    uid:
      claim: u
      expression: "claims.sub"
    extra:
    - key: "Example.org/Foo"
      valueExpression: "claims.x"
    - key: "foo"
      valueExpression: "claims.x"
    - key: "kubernetes.io/foo"
      valueExpression: "1"
    - key: "example.org/bar"
  userValidationRules:
  - expression: "user.username.startsWith('x')"
  - expression: ""
  - expression: "claims.x"
- issuer:
    url: https://x
    audiences: [a]
  claimMappings:
    username:
      expression: 'claims.sub'
anonymous:
  enabled: false
  conditions:
  - path: /livez
`;

const cases = (dir: string): Case[] => {
  const file = join(dir, 'auth.yaml');
  const cfg = ['--authentication-config', file];
  return [
    { name: 'http issuer with a query, no audiences, no username prefix', flags: cfg,
      config: `${header}jwt:\n- issuer:\n    url: http://example.com?x=1\n    audiences: []\n  claimMappings:\n    username:\n      claim: sub\n`,
      want: 'invalid authentication configuration: [jwt[0].issuer.url: Invalid value: "http://example.com?x=1": URL scheme must be https, jwt[0].issuer.url: Invalid value: "http://example.com?x=1": URL must not contain a query, jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required, jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]' },
    { name: 'every field rule at once', flags: cfg, config: BIG,
      want: `invalid authentication configuration: [jwt[0].issuer.discoveryURL: Invalid value: "https://x/": discoveryURL must be different from URL, jwt[0].issuer.audiences[1]: Duplicate value: "a", jwt[0].issuer.audienceMatchPolicy: Invalid value: "Foo": audienceMatchPolicy must be MatchAny for multiple audiences, jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates, jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set, jwt[0].claimValidationRules[1].claim: Duplicate value: "c", jwt[0].claimValidationRules[2].expression: Invalid value: "claims.foo +": compilation failed: ERROR: <input>:1:13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
 | claims.foo +
 | ............^, jwt[0].claimValidationRules[3].expression: Invalid value: "1": must evaluate to bool, jwt[0].claimValidationRules[4]: Required value: claim or expression is required, jwt[0].claimValidationRules[5]: Invalid value: "x": claim and expression can't both be set, jwt[0].claimMappings.username.prefix: Invalid value: "p": may not be specified when expression is set, jwt[0].claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing, jwt[0].claimMappings.uid: Invalid value: "": claim and expression can't both be set, jwt[0].claimMappings.extra[0].key: Invalid value: "Example.org": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), jwt[0].claimMappings.extra[0].key: Invalid value: "Example.org/Foo": must be lowercase, jwt[0].claimMappings.extra[1].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo"), jwt[0].claimMappings.extra[2].key: Invalid value: "kubernetes.io/foo": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use, jwt[0].claimMappings.extra[3].valueExpression: Required value, jwt[0].userValidationRules[1].expression: Required value, jwt[0].userValidationRules[2].expression: Invalid value: "claims.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'claims' (in container '')
 | claims.x
 | ^, jwt[1].issuer.url: Duplicate value: "https://x", anonymous.conditions: Invalid value: [{"Path":"/livez"}]: enabled should be set to true when conditions are defined]` },
    { name: 'v1beta1: rules typed dyn, email without email_verified', flags: cfg,
      config: `apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: https://x\n    audiences: [a]\n  claimValidationRules:\n  - expression: "claims.x"\n  claimMappings:\n    username:\n      expression: "claims.email"\n    groups:\n      expression: "1"\n  userValidationRules:\n  - expression: "'x'"\n`,
      want: 'invalid authentication configuration: [jwt[0].claimValidationRules[0].expression: Invalid value: "claims.x": must evaluate to bool, jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression, jwt[0].userValidationRules[0].expression: Invalid value: "\'x\'": must evaluate to bool]' },
    { name: 'a claim (type any) as the range of a comprehension', flags: cfg,
      config: `${header}jwt:\n- issuer:\n    url: https://y\n    audiences: [a]\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ''\n  claimValidationRules:\n${
        ["claims.roles.map(r, r) == ['a']", "claims.a.b.map(r, r) == ['a']", "claims['roles'].map(r, r) == ['a']", "dyn(claims.roles).map(r, r) == ['a']",
          "claims.?roles.orValue([]).map(r, r) == ['a']", "size(claims.roles) > 0"].map((e) => `  - expression: "${e}"\n`).join('')}`,
      want: `invalid authentication configuration: [jwt[0].claimValidationRules[0].expression: Invalid value: "claims.roles.map(r, r) == ['a']": compilation failed: ERROR: <input>:1:7: expression of type 'any' cannot be range of a comprehension (must be list, map, or dynamic)
 | claims.roles.map(r, r) == ['a']
 | ......^, jwt[0].claimValidationRules[2].expression: Invalid value: "claims['roles'].map(r, r) == ['a']": compilation failed: ERROR: <input>:1:7: expression of type 'any' cannot be range of a comprehension (must be list, map, or dynamic)
 | claims['roles'].map(r, r) == ['a']
 | ......^, jwt[0].claimValidationRules[4].expression: Invalid value: "claims.?roles.orValue([]).map(r, r) == ['a']": compilation failed: ERROR: <input>:1:22: expression of type 'any' cannot be range of a comprehension (must be list, map, or dynamic)
 | claims.?roles.orValue([]).map(r, r) == ['a']
 | .....................^]` },
    { name: 'an egress selector (no --egress-selector-config-file)', flags: cfg,
      config: `${header}jwt:\n- issuer:\n    url: https://y\n    audiences: [a]\n    egressSelectorType: cluster\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ""\n`,
      want: 'oidc: egress lookup required with egress selector type "cluster"' },
    { name: 'an unknown egress selector', flags: cfg,
      config: `apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: https://y\n    audiences: [a]\n    egressSelectorType: foo\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ""\n`,
      want: 'invalid authentication configuration: jwt[0].issuer.egressSelectorType: Invalid value: "foo": egress selector must be either controlplane or cluster' },
    { name: 'missing file', flags: ['--authentication-config', join(dir, 'nope.yaml')],
      want: `failed to load authentication configuration from file "${join(dir, 'nope.yaml')}": open ${join(dir, 'nope.yaml')}: no such file or directory` },
    { name: 'unknown field', flags: cfg, config: `${header}foo: 1\n`,
      want: `failed to load authentication configuration from file "${file}": strict decoding error: unknown field "foo"` },
    { name: 'unregistered version', flags: cfg, config: 'apiVersion: apiserver.config.k8s.io/v2\nkind: AuthenticationConfiguration\n',
      want: `failed to load authentication configuration from file "${file}": no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "pkg/runtime/scheme.go:111"` },
    { name: 'no apiVersion', flags: cfg, config: 'kind: AuthenticationConfiguration\n',
      want: `failed to load authentication configuration from file "${file}": Object 'apiVersion' is missing in 'kind: AuthenticationConfiguration\n'` },
    { name: 'JSON syntax error', flags: cfg, config: '{{{',
      want: `failed to load authentication configuration from file "${file}": couldn't get version/kind; json parse error: invalid character '{' looking for beginning of object key string` },
    { name: 'a list where a string is', flags: cfg, config: `${header}jwt:\n- issuer:\n    url: [x]\n`,
      want: `failed to load authentication configuration from file "${file}": json: cannot unmarshal array into Go struct field Issuer.jwt.issuer.url of type string` },
    { name: 'with --oidc-* flags', flags: [...cfg, '--oidc-issuer-url', 'https://a', '--oidc-client-id', 'b'], config: header,
      want: 'authentication-config file and oidc-* flags are mutually exclusive' },
    { name: 'anonymous section with --anonymous-auth', flags: [...cfg, '--anonymous-auth=false'], config: `${header}anonymous:\n  enabled: true\n`,
      want: 'anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file' },
    { name: 'the service account issuer', flags: cfg,
      config: `${header}jwt:\n- issuer:\n    url: ${SA_ISSUER}\n    audiences: [a]\n  claimMappings:\n    username:\n      claim: sub\n      prefix: ""\n`,
      want: `issuer.url: Invalid value: "${SA_ISSUER}": URL must not overlap with disallowed issuers: [${SA_ISSUER}]` },
    { name: '--oidc-issuer-url without --oidc-client-id', flags: ['--oidc-issuer-url', 'https://a'],
      want: 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set' },
    { name: '--oidc-issuer-url over http', flags: ['--oidc-issuer-url', 'http://a', '--oidc-client-id', 'b'],
      want: 'invalid authentication configuration: jwt[0].issuer.url: Invalid value: "http://a": URL scheme must be https' },
    { name: 'an unsupported --oidc-signing-algs', flags: ['--oidc-issuer-url', 'https://a', '--oidc-client-id', 'b', '--oidc-signing-algs', 'RS256,HS256'],
      want: 'oidc: unsupported signing alg: "HS256"' },
    { name: 'a missing --oidc-ca-file', flags: ['--oidc-issuer-url', 'https://a', '--oidc-client-id', 'b', '--oidc-ca-file', join(dir, 'nope.pem')],
      want: `open ${join(dir, 'nope.pem')}: no such file or directory` },
    { name: '--service-account-max-token-expiration under an hour', flags: ['--service-account-max-token-expiration', '30m'],
      want: 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds' },
  ];
};

/** Reads klog's `err="…"` (Go-quoted) or `err=<` … ` >` (multi-line) from kube-apiserver's stderr. */
function klogError(stderr: string): string | undefined {
  const line = stderr.split('\n').findIndex((l) => l.includes('"command failed" err='));
  if (line < 0) return undefined;
  const lines = stderr.split('\n');
  const first = lines[line] ?? '';
  const quoted = /err=(".*")\s*$/.exec(first);
  if (quoted !== null) return JSON.parse(quoted[1] ?? '""') as string;
  const body: string[] = [];
  for (const l of lines.slice(line + 1)) {
    if (l === ' >') break;
    body.push(l.replace(/^\t/, ''));
  }
  return body.join('\n');
}

/** Starts the cached kube-apiserver with `flags` and the service account files; resolves with its start-up error. */
function oracleStartupError(flags: readonly string[], dir: string): Promise<string | undefined> {
  const bin = oracleBuildLocation().kubeApiserver;
  return new Promise((resolve) => {
    const child = spawn(bin, [
      '--etcd-servers', 'http://127.0.0.1:1', '--service-account-issuer', SA_ISSUER, '--cert-dir', join(dir, 'oracle-certs'),
      '--service-account-key-file', join(dir, 'sa.pub'), '--service-account-signing-key-file', join(dir, 'sa.key'), ...flags,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    // A guard against a kube-apiserver that got past validation (it then waits for etcd), not a timing assertion.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', () => { clearTimeout(guard); resolve(klogError(stderr)); });
  });
}

describe('authentication flags and --authentication-config refused at start with kube\'s messages', () => {
  let dir: string;
  const oracleMissing = oracleUnavailable();
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-authn-startup-'));
    const sa = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await writeFile(join(dir, 'sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    await writeFile(join(dir, 'sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
    if (oracleMissing !== undefined) console.log(`# oracle comparison skipped: ${oracleMissing}`);
  });
  after(async () => { if (dir !== undefined) await rm(dir, { recursive: true, force: true }); });

  for (const name of cases('/d').map((c) => c.name)) {
    it(name, async () => {
      const c = cases(dir).find((x) => x.name === name);
      assert.ok(c !== undefined);
      if (c.config !== undefined) await writeFile(join(dir, 'auth.yaml'), c.config);
      const data = await mkdtemp(join(dir, 'data-'));
      let got: string | undefined;
      try {
        const server = await runServer(parseServeFlags(['--secure-port', '0', '--data-dir', data, '--service-account-issuer', SA_ISSUER, ...c.flags]));
        await server.close();
      } catch (err) {
        got = (err as Error).message;
      }
      assert.equal(got, c.want);
      if (oracleMissing === undefined) assert.equal(await oracleStartupError(c.flags, dir), c.want, 'the oracle says otherwise');
    });
  }
});
