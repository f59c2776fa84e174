// Webhook token authentication and webhook authorization end to end, on kapi and (when its build
// is cached) on kube-apiserver v1.36.3 with the same flags and the same scripted webhooks: what
// the webhooks receive (TokenReview, SubjectAccessReview v1 and v1beta1), what kubectl and raw
// clients get (whoami, can-i, allow, deny before RBAC, no opinion falling through to RBAC,
// failurePolicy, matchConditions, retries), and how often the webhooks are asked (caches).
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { writeAdminKubeconfig } from '../cli/kubeconfig.ts';
import { newTestPKI, startReviewWebhook, writeWebhookKubeconfig, type Json, type ScriptedReviewWebhook, type TestPKI } from './testing/auth-webhooks.ts';
import { rawRequest, type AdminCredentials, type RawResponse } from './testing/https-client.ts';
import { kubectl } from './testing/kubectl.ts';
import { oracleUnavailable, startOracle } from './testing/oracle.ts';
import { startSuite } from './testing/suite.ts';

/** The users the token webhook knows, by token. */
const USERS: Readonly<Record<string, Json>> = {
  'alice-token': { username: 'alice', uid: 'alice-uid', groups: ['dev'], extra: { 'example.com/team': ['a'] } },
  'carol-token': { username: 'carol', groups: ['dev'] },
  'dave-token': { username: 'dave' },
  'erin-token': { username: 'erin' },
};

function tokenAnswer(review: Json): Json {
  const token = String((review['spec'] as Json)['token']);
  if (token === 'revoked-token') return { authenticated: false, error: 'token revoked' };
  const user = USERS[token];
  return user === undefined ? { authenticated: false } : { authenticated: true, user };
}

const specOf = (r: Json): Json => r['spec'] as Json;
const userOf = (r: Json): string => String(specOf(r)['user'] ?? '');
const resourceOf = (r: Json): Json | undefined => specOf(r)['resourceAttributes'] as Json | undefined;

/** alice may get secrets, may not delete configmaps; erin's reviews fail with 500; the rest has no opinion. */
function accessAnswer(review: Json): Json | number {
  const ra = resourceOf(review);
  if (userOf(review) === 'erin') return 500;
  if (userOf(review) !== 'alice') return { allowed: false };
  if (ra?.['resource'] === 'secrets' && ra['verb'] === 'get') return { allowed: true, reason: 'webhook allows reading secrets' };
  if (ra?.['resource'] === 'configmaps' && ra['verb'] === 'delete') return { allowed: false, denied: true, reason: 'webhook denies deleting configmaps' };
  const nra = specOf(review)['nonResourceAttributes'] as Json | undefined;
  if (nra?.['path'] === '/custom-path') return { allowed: true };
  return { allowed: false, reason: 'webhook has no opinion' };
}

interface Target {
  readonly creds: AdminCredentials;
  request(token: string, method: string, path: string, body?: Json): Promise<RawResponse>;
  stop(): Promise<void>;
}

async function kapiTarget(flags: readonly string[]): Promise<Target> {
  const s = await startSuite({ flags });
  return target(s.creds, () => s.close());
}

async function oracleTarget(flags: readonly string[], authorizationModes: readonly string[]): Promise<Target> {
  const o = await startOracle({ flags, authorizationModes });
  return target(o.creds, () => o.stop());
}

function target(creds: AdminCredentials, stop: () => Promise<void>): Target {
  return {
    creds, stop,
    request: (token, method, path, body) => rawRequest({ ...creds, token }, {
      method, path, ...(body !== undefined ? { body: JSON.stringify(body), contentType: 'application/json' } : {}),
    }),
  };
}

/** A port nothing listens on (a webhook that is down). */
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const count = (hook: ScriptedReviewWebhook, pred: (r: Json) => boolean): number => hook.received.filter(pred).length;
const messageOf = (r: RawResponse): string => (r.headers['content-type']?.toString().includes('json') === true ? String((r.json() as Json)['message']) : r.text.trim());

/**
 * A ClusterRole of the test's own on configmaps: the bootstrap edit and view roles are aggregated,
 * and kube-apiserver alone (no controller manager) leaves their rules empty.
 */
async function configMapRole(t: Target): Promise<string> {
  const r = await t.request(t.creds.token, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'configmap-editor' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'delete'] }],
  });
  assert.equal(r.status, 201, r.text);
  return 'configmap-editor';
}

async function bindRole(t: Target, kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, user: string, role: string): Promise<void> {
  const path = kind === 'RoleBinding' ? '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings' : '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings';
  const r = await t.request(t.creds.token, 'POST', path, {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  });
  assert.equal(r.status, 201, r.text);
}

/** Waits until RBAC lets `token` do a request (the RBAC cache follows bindings by watch). */
async function untilStatus(t: Target, token: string, path: string, want: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await t.request(token, 'GET', path)).status === want) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Webhooks { readonly pki: TestPKI; readonly authn: ScriptedReviewWebhook; readonly authz: ScriptedReviewWebhook; readonly dir: string }

async function startWebhooks(): Promise<Webhooks> {
  const pki = await newTestPKI();
  const dir = await mkdtemp(join(tmpdir(), 'kapi-authwh-'));
  return { pki, dir, authn: await startReviewWebhook(pki, tokenAnswer), authz: await startReviewWebhook(pki, accessAnswer) };
}

async function stopWebhooks(w: Webhooks | undefined): Promise<void> {
  if (w === undefined) return;
  await w.authn.close();
  await w.authz.close();
  await rm(w.dir, { recursive: true, force: true });
}

/** --authorization-mode Webhook,RBAC with the legacy webhook flags: what a client and the webhooks see. */
async function legacyScenario(start: (flags: readonly string[], modes: readonly string[]) => Promise<Target>): Promise<Json> {
  const w = await startWebhooks();
  let t: Target | undefined;
  try {
    t = await start([
      '--authentication-token-webhook-config-file', await w.authn.writeKubeconfig(w.dir, 'authn.kubeconfig'),
      '--authentication-token-webhook-version', 'v1',
      '--authorization-webhook-config-file', await w.authz.writeKubeconfig(w.dir, 'authz.kubeconfig'),
    ], ['Webhook', 'RBAC']);
    const home = await mkdtemp(join(w.dir, 'home-'));
    const kubeconfigPath = join(w.dir, 'alice.kubeconfig');
    await writeAdminKubeconfig(kubeconfigPath, { server: t.creds.server, caCert: t.creds.ca, token: 'alice-token' });
    const k = (args: readonly string[]) => kubectl({ kubeconfigPath, home }, args);
    const whoami = await k(['auth', 'whoami', '-o', 'json']);
    assert.equal(whoami.code, 0, whoami.stderr);
    const secret1 = await t.request('alice-token', 'GET', '/api/v1/namespaces/default/secrets/x');
    const secret2 = await t.request('alice-token', 'GET', '/api/v1/namespaces/default/secrets/x');
    const canGet = await k(['auth', 'can-i', 'get', 'secrets']);
    const canDelete = await k(['auth', 'can-i', 'delete', 'configmaps']);
    const noRBAC = await t.request('alice-token', 'GET', '/api/v1/namespaces/default/configmaps');
    await bindRole(t, 'RoleBinding', 'alice-edit', 'alice', await configMapRole(t));
    await untilStatus(t, 'alice-token', '/api/v1/namespaces/default/configmaps', 200);
    const listCM = await t.request('alice-token', 'GET', '/api/v1/namespaces/default/configmaps');
    const deleteCM = await t.request('alice-token', 'DELETE', '/api/v1/namespaces/default/configmaps/y');
    const custom = await t.request('alice-token', 'GET', '/custom-path');
    const selectors = new URLSearchParams({ fieldSelector: 'metadata.name=x,type!=foo', labelSelector: 'a=b,c in (e,d),!f,g,h>1' });
    const selected = await t.request('alice-token', 'GET', `/api/v1/namespaces/default/secrets?${selectors.toString()}`);
    const rules = await t.request('alice-token', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' },
    });
    const rulesStatus = (rules.json() as Json)['status'] as Json;
    const revoked = await t.request('revoked-token', 'GET', '/api/v1/namespaces/default');
    const unknown = await t.request('nobody-token', 'GET', '/api/v1/namespaces/default');
    const secretReviews = w.authz.received.filter((r) => userOf(r) === 'alice' && resourceOf(r)?.['resource'] === 'secrets' && resourceOf(r)?.['verb'] === 'get' && resourceOf(r)?.['name'] === 'x');
    return {
      whoami: (JSON.parse(whoami.stdout) as Json)['status'],
      firstTokenReview: w.authn.received[0],
      aliceTokenReviews: count(w.authn, (r) => specOf(r)['token'] === 'alice-token'),
      secretStatuses: [secret1.status, secret2.status],
      secretReviewCount: secretReviews.length,
      secretReview: secretReviews[0],
      canGet: canGet.stdout.trim(), canDelete: canDelete.stdout.trim(),
      noRBAC: { status: noRBAC.status, message: messageOf(noRBAC) },
      listCM: listCM.status,
      deleteCM: { status: deleteCM.status, message: messageOf(deleteCM) },
      custom: custom.status,
      customReview: w.authz.received.find((r) => (specOf(r)['nonResourceAttributes'] as Json | undefined)?.['path'] === '/custom-path'),
      revoked: revoked.status, unknown: unknown.status,
      selected: selected.status,
      rules: { status: rules.status, incomplete: rulesStatus['incomplete'], evaluationError: rulesStatus['evaluationError'] },
      selectedReview: w.authz.received.map(resourceOf).find((ra) => ra?.['verb'] === 'list' && ra['resource'] === 'secrets'),
    };
  } finally {
    await t?.stop();
    await stopWebhooks(w);
  }
}

/** --authorization-config: a Deny webhook that is down, a v1beta1 webhook without cache behind matchConditions, a NoOpinion one that is down, RBAC. */
async function configScenario(start: (flags: readonly string[], modes: readonly string[]) => Promise<Target>): Promise<Json> {
  const w = await startWebhooks();
  let t: Target | undefined;
  try {
    const dead = await writeWebhookKubeconfig(join(w.dir, 'dead.kubeconfig'), `https://127.0.0.1:${await deadPort()}/review`, w.pki);
    const webhook = (name: string, failurePolicy: string, version: string, file: string, conditions: string[], more: Json = {}): Json => ({
      type: 'Webhook', name,
      webhook: {
        timeout: '5s', failurePolicy, subjectAccessReviewVersion: version, matchConditionSubjectAccessReviewVersion: 'v1',
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: file }, matchConditions: conditions.map((expression) => ({ expression })), ...more,
      },
    });
    const configPath = join(w.dir, 'authz-config.yaml');
    await writeFile(configPath, stringify({
      apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration',
      authorizers: [
        webhook('guard', 'Deny', 'v1', dead, ["request.user == 'carol'"]),
        webhook('main', 'NoOpinion', 'v1beta1', await w.authz.writeKubeconfig(w.dir, 'authz.kubeconfig'),
          ['has(request.resourceAttributes)', "request.resourceAttributes.namespace != 'skip'"],
          { cacheAuthorizedRequests: false, cacheUnauthorizedRequests: false }),
        webhook('fallback', 'NoOpinion', 'v1', dead, ["request.user == 'dave'"]),
        { type: 'RBAC', name: 'rbac' },
      ],
    }));
    t = await start([
      '--authentication-token-webhook-config-file', await w.authn.writeKubeconfig(w.dir, 'authn.kubeconfig'),
      '--authorization-config', configPath,
    ], []);
    await bindRole(t, 'ClusterRoleBinding', 'dave-view', 'dave', await configMapRole(t));
    await untilStatus(t, 'dave-token', '/api/v1/namespaces/default/configmaps', 200);
    const secret1 = await t.request('alice-token', 'GET', '/api/v1/namespaces/default/secrets/x');
    const secret2 = await t.request('alice-token', 'GET', '/api/v1/namespaces/default/secrets/x');
    const skipped = await t.request('alice-token', 'GET', '/api/v1/namespaces/skip/secrets/x');
    const nonResource = await t.request('alice-token', 'GET', '/custom-path');
    const carol = await t.request('carol-token', 'GET', '/api/v1/namespaces/default');
    const daveAllowed = await t.request('dave-token', 'GET', '/api/v1/namespaces/default/configmaps');
    const daveFailed = await t.request('dave-token', 'GET', '/api/v1/namespaces/default/secrets');
    const erinBefore = count(w.authz, (r) => userOf(r) === 'erin');
    const erin = await t.request('erin-token', 'GET', '/api/v1/namespaces/default');
    const deadPortText = (r: RawResponse): string => r.text.trim().replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
    const secretReviews = w.authz.received.filter((r) => userOf(r) === 'alice' && resourceOf(r)?.['resource'] === 'secrets');
    return {
      secretStatuses: [secret1.status, secret2.status],
      secretReviews: secretReviews.map((r) => resourceOf(r)?.['namespace']),
      secretReview: secretReviews[0],
      skipped: { status: skipped.status, message: messageOf(skipped) },
      nonResource: { status: nonResource.status, message: messageOf(nonResource) },
      mainSawNonResource: w.authz.received.some((r) => specOf(r)['nonResourceAttributes'] !== undefined),
      carol: { status: carol.status, text: deadPortText(carol) },
      daveAllowed: daveAllowed.status,
      daveFailed: { status: daveFailed.status, text: deadPortText(daveFailed) },
      erin: { status: erin.status, text: erin.text.trim() },
      erinReviews: count(w.authz, (r) => userOf(r) === 'erin') - erinBefore,
    };
  } finally {
    await t?.stop();
    await stopWebhooks(w);
  }
}

/** The observations that differ, each as `key: kapi <json> kube <json>`. */
function differences(kapi: Json, kube: Json): string[] {
  return [...new Set([...Object.keys(kapi), ...Object.keys(kube)])].filter((k) => !isDeepStrictEqual(kapi[k], kube[k]))
    .map((k) => `${k}: kapi ${JSON.stringify(kapi[k])} kube ${JSON.stringify(kube[k])}`);
}

describe('webhook token authentication and webhook authorization', () => {
  let legacy: Json;
  let config: Json;
  before(async () => {
    legacy = await legacyScenario((flags, modes) => kapiTarget([...flags, '--authorization-mode', modes.join(',')]));
    config = await configScenario((flags) => kapiTarget(flags));
  });

  it('kubectl auth whoami shows the user the token webhook answered with', () => {
    assert.deepEqual(legacy['whoami'], {
      userInfo: { username: 'alice', uid: 'alice-uid', groups: ['dev', 'system:authenticated'], extra: { 'example.com/team': ['a'] } },
    });
  });

  it('the TokenReview carries the token and the API audiences, and an answer is cached', () => {
    assert.deepEqual(legacy['firstTokenReview'], {
      kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: {},
      spec: { token: 'alice-token', audiences: ['https://kubernetes.default.svc.cluster.local'] }, status: { user: {} },
    });
    assert.equal(legacy['aliceTokenReviews'], 1);
  });

  it('a token the webhook rejects (with or without an error) is 401', () => {
    assert.equal(legacy['revoked'], 401);
    assert.equal(legacy['unknown'], 401);
  });

  it('the webhook allows: the request goes through, and the second identical request is answered from the cache', () => {
    assert.deepEqual(legacy['secretStatuses'], [404, 404]);
    assert.equal(legacy['secretReviewCount'], 1);
    assert.deepEqual(legacy['secretReview'], {
      kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1beta1', metadata: {},
      spec: {
        resourceAttributes: { namespace: 'default', verb: 'get', version: 'v1', resource: 'secrets', name: 'x' },
        user: 'alice', group: ['dev', 'system:authenticated'], extra: { 'example.com/team': ['a'] }, uid: 'alice-uid',
      },
      status: { allowed: false },
    });
  });

  it('a list\'s field and label selectors go to the webhook as requirements', () => {
    assert.equal(legacy['selected'], 403);
    assert.deepEqual(legacy['selectedReview'], {
      namespace: 'default', verb: 'list', version: 'v1', resource: 'secrets', name: 'x',
      fieldSelector: { requirements: [{ key: 'metadata.name', operator: 'In', values: ['x'] }, { key: 'type', operator: 'NotIn', values: ['foo'] }] },
      labelSelector: {
        requirements: [
          { key: 'a', operator: 'In', values: ['b'] }, { key: 'c', operator: 'In', values: ['d', 'e'] },
          { key: 'f', operator: 'DoesNotExist' }, { key: 'g', operator: 'Exists' },
        ],
      },
    });
  });

  it('SelfSubjectRulesReview is incomplete: a webhook cannot list rules', () => {
    assert.deepEqual(legacy['rules'], { status: 201, incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
  });

  it('kubectl auth can-i is answered by the webhook', () => {
    assert.equal(legacy['canGet'], 'yes');
    assert.equal(legacy['canDelete'], 'no - webhook denies deleting configmaps');
  });

  it('no opinion falls through to RBAC; a deny wins over RBAC', () => {
    assert.deepEqual(legacy['noRBAC'], {
      status: 403,
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": webhook has no opinion',
    });
    assert.equal(legacy['listCM'], 200);
    assert.deepEqual(legacy['deleteCM'], {
      status: 403,
      message: 'configmaps "y" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "default": webhook denies deleting configmaps',
    });
  });

  it('non-resource requests are reviewed with their path and verb', () => {
    assert.equal(legacy['custom'], 404);
    const review = legacy['customReview'] as Json;
    assert.deepEqual(specOf(review)['nonResourceAttributes'], { path: '/custom-path', verb: 'get' });
  });

  it('--authorization-config: a v1beta1 webhook without caches is asked every time', () => {
    assert.deepEqual(config['secretStatuses'], [404, 404]);
    assert.deepEqual(config['secretReviews'], ['default', 'default']);
    assert.equal((config['secretReview'] as Json)['apiVersion'], 'authorization.k8s.io/v1beta1');
  });

  it('matchConditions that are false skip the webhook (RBAC decides)', () => {
    assert.deepEqual(config['skipped'], {
      status: 403, message: 'secrets "x" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "skip"',
    });
    assert.deepEqual(config['nonResource'], { status: 403, message: 'forbidden: User "alice" cannot get path "/custom-path"' });
    assert.equal(config['mainSawNonResource'], false);
  });

  it('failurePolicy Deny: a webhook that is down fails the request', () => {
    assert.deepEqual(config['carol'], {
      status: 500,
      text: 'Internal Server Error: "/api/v1/namespaces/default": Post "https://127.0.0.1:PORT/review?timeout=5s": dial tcp 127.0.0.1:PORT: connect: connection refused',
    });
  });

  it('failurePolicy NoOpinion: RBAC still allows; without an allow the error is a 500', () => {
    assert.equal(config['daveAllowed'], 200);
    assert.equal((config['daveFailed'] as Json)['status'], 500);
  });

  it('a webhook answering 500 is tried five times before the error counts', () => {
    assert.equal(config['erinReviews'], 5);
    assert.deepEqual(config['erin'], {
      status: 500, text: 'Internal Server Error: "/api/v1/namespaces/default": an error on the server ("webhook failed") has prevented the request from succeeding',
    });
  });

  const skip = oracleUnavailable();
  it('kube-apiserver v1.36.3 sees and answers the same', { skip }, async () => {
    const kubeLegacy = await legacyScenario((flags, modes) => oracleTarget(flags, modes));
    const kubeConfig = await configScenario((flags, modes) => oracleTarget(flags, modes));
    assert.deepEqual(differences(legacy, kubeLegacy), []);
    assert.deepEqual(differences(config, kubeConfig), []);
  });

  after(() => undefined);
});
