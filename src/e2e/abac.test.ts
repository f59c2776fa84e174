// --authorization-mode ABAC with --authorization-policy-file end to end: v1beta1 and unversioned
// policies by user, group and `*`, readonly, namespace, resource, API group and non-resource paths
// (exact, prefix and `*`), before RBAC in the chain; impersonated users' requests and their
// SelfSubjectRulesReview. Each answer is asserted, and when the reference kube-apiserver is cached
// the same requests are sent to it with the same flags and must get the same answers.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { oracleUnavailable, startOracle, type Oracle } from './testing/oracle.ts';
import { startSuite, type Suite } from './testing/suite.ts';

const V1 = (spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const POLICIES = [
  '# ABAC policies of the e2e test',
  V1({ user: 'alice', namespace: 'abac-a', resource: 'configmaps', apiGroup: '', readonly: true }),
  V1({ group: 'devs', namespace: '*', resource: '*', apiGroup: 'apps' }),
  V1({ user: '*', nonResourcePath: '/version', readonly: true }),
  '',
  JSON.stringify({ user: 'carol' }),
  V1({ user: 'dave', nonResourcePath: '/apis/*', readonly: true }),
  JSON.stringify({ group: 'auditors', readonly: true, resource: 'secrets' }),
].join('\n');

interface Case {
  readonly name: string;
  readonly user: string;
  readonly groups?: readonly string[];
  readonly method: string;
  readonly path: string;
  readonly body?: Record<string, unknown>;
  readonly want: number;
}

const cm = (name: string): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const CASES: readonly Case[] = [
  { name: 'alice lists configmaps in her namespace', user: 'alice', method: 'GET', path: '/api/v1/namespaces/abac-a/configmaps', want: 200 },
  { name: 'alice may not create there (readonly)', user: 'alice', method: 'POST', path: '/api/v1/namespaces/abac-a/configmaps', body: cm('x'), want: 403 },
  { name: 'alice may not list another namespace', user: 'alice', method: 'GET', path: '/api/v1/namespaces/default/configmaps', want: 403 },
  { name: 'alice may not list secrets', user: 'alice', method: 'GET', path: '/api/v1/namespaces/abac-a/secrets', want: 403 },
  { name: 'a devs member lists deployments anywhere', user: 'bob', groups: ['devs'], method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments', want: 200 },
  { name: 'a devs member creates in apps', user: 'bob', groups: ['devs'], method: 'DELETE', path: '/apis/apps/v1/namespaces/default/deployments/none', want: 404 },
  { name: 'a devs member may not read core configmaps', user: 'bob', groups: ['devs'], method: 'GET', path: '/api/v1/namespaces/default/configmaps', want: 403 },
  { name: 'any authenticated user reads /version', user: 'eve', method: 'GET', path: '/version', want: 200 },
  { name: 'no policy gives /metrics', user: 'eve', method: 'GET', path: '/metrics', want: 403 },
  { name: 'an unversioned policy with only a user allows everything', user: 'carol', method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/none', want: 404 },
  { name: 'an unversioned policy with only a user allows every path', user: 'carol', method: 'GET', path: '/metrics', want: 200 },
  { name: 'a path prefix policy', user: 'dave', method: 'GET', path: '/apis/apps', want: 200 },
  { name: 'a path prefix policy does not reach other paths', user: 'dave', method: 'GET', path: '/metrics', want: 403 },
  { name: 'an unversioned group policy for one resource in every namespace', user: 'frank', groups: ['auditors'], method: 'GET', path: '/api/v1/namespaces/kube-system/secrets', want: 200 },
  { name: 'an unversioned group policy does not cover other resources', user: 'frank', groups: ['auditors'], method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps', want: 403 },
];

interface Answer { readonly status: number; readonly message?: string }

async function answer(send: (r: RawRequest) => Promise<RawResponse>, c: Pick<Case, 'user' | 'groups' | 'method' | 'path' | 'body'>): Promise<Answer> {
  const headers: Record<string, string> = { 'Impersonate-User': c.user };
  const r = await send({
    method: c.method, path: c.path, headers: { ...headers, ...(c.groups !== undefined ? { 'Impersonate-Group': c.groups.join(',') } : {}) },
    ...(c.body !== undefined ? { body: JSON.stringify(c.body), contentType: 'application/json' } : {}),
  });
  if (r.status !== 403) return { status: r.status };
  return { status: r.status, message: (r.json() as { message?: string }).message ?? '' };
}

describe('--authorization-mode ABAC', () => {
  let dir: string;
  let s: Suite;
  let kube: Oracle | undefined;
  const skipKube = oracleUnavailable();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-abac-'));
    const policyFile = join(dir, 'policy.jsonl');
    await writeFile(policyFile, POLICIES);
    s = await startSuite({ flags: ['--authorization-mode', 'ABAC,RBAC', '--authorization-policy-file', policyFile] });
    if (skipKube === undefined) kube = await startOracle({ authorizationModes: ['ABAC', 'RBAC'], flags: ['--authorization-policy-file', policyFile] });
    for (const send of [s.request, kube?.request.bind(kube)]) {
      if (send === undefined) continue;
      const ns = await send({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'abac-a' } }) });
      assert.equal(ns.status, 201);
    }
  });
  after(async () => {
    await s?.close();
    await kube?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const got = await answer(s.request, c);
      assert.equal(got.status, c.want, JSON.stringify(got));
      if (kube !== undefined) assert.deepEqual(got, await answer(kube.request.bind(kube), c));
    });
  }

  it('names ABAC\'s reason in a 403 when RBAC has none either', async () => {
    const got = await answer(s.request, { user: 'alice', method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
    assert.equal(got.message, 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": No policy matched.');
  });

  it('SelfSubjectRulesReview lists the policies matching the user and namespace as rules', async (t) => {
    interface Rules { resourceRules: { verbs: string[]; apiGroups?: string[]; resources?: string[] }[]; nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[] }
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'abac-a' } };
    const rules = async (send: (r: RawRequest) => Promise<RawResponse>): Promise<Rules> => {
      const r = await send({ method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', body: JSON.stringify(review), headers: { 'Impersonate-User': 'alice' } });
      assert.equal(r.status, 201);
      return (r.json() as { status: Rules }).status;
    };
    // RBAC's rules come in its informer's (map) order in kube: compare them as sets.
    const asSet = (r: Rules): string[] => [...r.resourceRules, ...r.nonResourceRules].map((x) => JSON.stringify(x)).sort();
    const got = await rules(s.request);
    // ABAC's rules come first; a policy without a namespace (the /version one) gives no rule for a namespace.
    assert.deepEqual(got.resourceRules[0], { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] });
    assert.ok(!got.nonResourceRules.some((r) => r.nonResourceURLs.length === 1 && r.nonResourceURLs[0] === '/version'));
    if (kube === undefined) { t.diagnostic(`kube-apiserver not compared: ${skipKube ?? ''}`); return; }
    const want = await rules(kube.request.bind(kube));
    assert.deepEqual(got.resourceRules[0], want.resourceRules[0]);
    assert.deepEqual(asSet(got), asSet(want));
  });
});
