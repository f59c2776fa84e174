// --authentication-config and --authorization-config changed while the server runs, as kube reloads
// them: a new JWT issuer is accepted and a removed one refused once the file changes; a file that
// does not decode, fails validation or changes the anonymous section is refused and the previous
// configuration stays in use; the authorizer chain follows --authorization-config and refuses a
// file without the start-up's non-webhook types; apiserver_*_config_controller_* count each reload
// and name the configuration in use by its hash.
// No Go counterpart: end-to-end tests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startTestIssuer, type TestIssuer } from './testing/jwt-issuer.ts';
import { newTestPKI, startReviewWebhook, type Json, type ScriptedReviewWebhook } from './testing/auth-webhooks.ts';
import { rawRequest } from './testing/https-client.ts';
import { parsePrometheusText, sampleValue } from './testing/prometheus.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const AUD = 'kapi-reload';

const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

function jwtEntry(issuer: TestIssuer): Json {
  return { issuer: { url: issuer.url, audiences: [AUD], certificateAuthority: issuer.ca }, claimMappings: { username: { claim: 'sub', prefix: 'jwt:' } } };
}

const authnConfig = (issuers: readonly TestIssuer[], anonymousPaths: readonly string[] = ['/livez']): string => stringify({
  apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration',
  jwt: issuers.map(jwtEntry), anonymous: { enabled: true, conditions: anonymousPaths.map((path) => ({ path })) },
});

async function scrape(s: Suite): Promise<ReturnType<typeof parsePrometheusText>> {
  const r = await s.request({ method: 'GET', path: '/metrics' });
  assert.equal(r.status, 200);
  return parsePrometheusText(r.text);
}

/** The user a token authenticates as (SelfSubjectReview), or the HTTP status when it does not. */
async function whoami(s: Suite, token: string): Promise<string | number> {
  const r = await rawRequest({ ...s.creds, token }, {
    method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  if (r.status !== 201) return r.status;
  return ((r.json() as { status: { userInfo: { username: string } } }).status.userInfo.username);
}

describe('--authentication-config reloads', () => {
  let a: TestIssuer;
  let b: TestIssuer;
  let s: Suite;
  let dir: string;
  let path: string;
  let n = 0;
  // A new token each time: the token cache would otherwise answer for a token seen before.
  const token = (issuer: TestIssuer, sub: string): Promise<string> => issuer.sign({ sub, aud: AUD, nonce: String(n++) });
  const reloads = async (status: string): Promise<number> => sampleValue(await scrape(s), 'apiserver_authentication_config_controller_automatic_reloads_total', { status }) ?? 0;

  before(async () => {
    [a, b] = await Promise.all([startTestIssuer(), startTestIssuer()]);
    dir = await mkdtemp(join(tmpdir(), 'kapi-authn-reload-'));
    path = join(dir, 'authn.yaml');
    await writeFile(path, authnConfig([a]));
    s = await startSuite({ flags: ['--authorization-mode', 'RBAC', '--authentication-config', path] });
  });
  after(async () => {
    await s?.close();
    await Promise.all([a?.close(), b?.close()]);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('serves the start-up file and names it in last_config_info', async () => {
    assert.equal(await whoami(s, await token(a, 'alice')), 'jwt:alice');
    assert.equal(await whoami(s, await token(b, 'bob')), 401);
    const m = await scrape(s);
    const info = m.get('apiserver_authentication_config_controller_last_config_info');
    assert.equal(info?.samples.length, 1);
    assert.equal(info?.samples[0]?.labels['hash'], sha(authnConfig([a])));
    assert.match(info?.samples[0]?.labels['apiserver_id_hash'] ?? '', /^sha256:[0-9a-f]{64}$/);
  });

  it('accepts a new issuer once the file names it, and counts the reload', async () => {
    const before = await reloads('success');
    const text = authnConfig([a, b]);
    await writeFile(path, text);
    assert.equal(await eventually('issuer b accepted', async () => {
      const who = await whoami(s, await token(b, 'bob'));
      return who === 401 ? undefined : who;
    }), 'jwt:bob');
    assert.equal(await whoami(s, await token(a, 'alice')), 'jwt:alice');
    assert.equal(await reloads('success'), before + 1);
    const info = (await scrape(s)).get('apiserver_authentication_config_controller_last_config_info');
    assert.equal(info?.samples[0]?.labels['hash'], sha(text));
    assert.ok((sampleValue(await scrape(s), 'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds', { status: 'success' }) ?? 0) > 0);
  });

  const refused: [string, () => string][] = [
    ['a file that does not decode', () => 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: [{issuer: {url: x}, bogus: 1}]\n'],
    ['a file that fails validation', () => authnConfig([a, a])],
    ['a changed anonymous section', () => authnConfig([a], ['/livez', '/readyz'])],
  ];
  for (const [name, text] of refused) {
    it(`refuses ${name} and keeps the configuration in use`, async () => {
      const failures = await reloads('failure');
      const successes = await reloads('success');
      await writeFile(path, text());
      await eventually('the failed reload counted', async () => ((await reloads('failure')) > failures ? true : undefined));
      assert.equal(await reloads('success'), successes);
      assert.equal(await whoami(s, await token(b, 'bob')), 'jwt:bob');
      assert.equal(await whoami(s, await token(a, 'alice')), 'jwt:alice');
    });
  }

  it('refuses a removed issuer once the file drops it', async () => {
    await writeFile(path, authnConfig([b]));
    assert.equal(await eventually('issuer a refused', async () => ((await whoami(s, await token(a, 'alice'))) === 401 ? 401 : undefined)), 401);
    assert.equal(await whoami(s, await token(b, 'bob')), 'jwt:bob');
  });
});

describe('--authorization-config reloads', () => {
  let s: Suite;
  let dir: string;
  let path: string;
  let hook: ScriptedReviewWebhook;
  let hookConfig: string;
  const webhook: Json = {};
  const authzConfig = (authorizers: readonly Json[]): string => stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers });
  const rbac = { type: 'RBAC', name: 'rbac' };
  const reloads = async (status: string): Promise<number> => sampleValue(await scrape(s), 'apiserver_authorization_config_controller_automatic_reloads_total', { status }) ?? 0;
  // The static token file's user "carol": RBAC grants her nothing, the webhook everything.
  const listAsCarol = async (): Promise<number> => (await rawRequest({ ...s.creds, token: 'carol-token' }, { method: 'GET', path: '/api/v1/namespaces/default/configmaps' })).status;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-authz-reload-'));
    const pki = await newTestPKI();
    hook = await startReviewWebhook(pki, () => ({ allowed: true }));
    hookConfig = await hook.writeKubeconfig(dir, 'authz.kubeconfig');
    Object.assign(webhook, {
      type: 'Webhook', name: 'allow-all',
      webhook: {
        timeout: '5s', failurePolicy: 'NoOpinion', subjectAccessReviewVersion: 'v1', matchConditionSubjectAccessReviewVersion: 'v1',
        authorizedTTL: '1ms', unauthorizedTTL: '1ms', cacheAuthorizedRequests: false, cacheUnauthorizedRequests: false,
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: hookConfig },
      },
    });
    path = join(dir, 'authz.yaml');
    await writeFile(path, authzConfig([rbac]));
    await writeFile(join(dir, 'tokens.csv'), 'carol-token,carol,carol-uid\n');
    s = await startSuite({ flags: ['--authorization-config', path, '--token-auth-file', join(dir, 'tokens.csv')] });
  });
  after(async () => {
    await s?.close();
    await hook?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('adds a webhook to the chain once the file names it', async () => {
    assert.equal(await listAsCarol(), 403);
    const text = authzConfig([rbac, webhook]);
    await writeFile(path, text);
    assert.equal(await eventually('the webhook allows carol', async () => ((await listAsCarol()) === 200 ? 200 : undefined)), 200);
    assert.ok(hook.received.length > 0);
    assert.equal(await reloads('success'), 1);
    const info = (await scrape(s)).get('apiserver_authorization_config_controller_last_config_info');
    assert.equal(info?.samples[0]?.labels['hash'], sha(text));
  });

  const refused: [string, () => string][] = [
    ['a file without the start-up RBAC authorizer', () => authzConfig([webhook])],
    ['a non-webhook authorizer not named after its type', () => authzConfig([{ type: 'RBAC', name: 'roles' }, webhook])],
    ['a Node authorizer not enabled at start-up', () => authzConfig([rbac, { type: 'Node', name: 'node' }, webhook])],
  ];
  for (const [name, text] of refused) {
    it(`refuses ${name} and keeps the chain in use`, async () => {
      const failures = await reloads('failure');
      await writeFile(path, text());
      await eventually('the failed reload counted', async () => ((await reloads('failure')) > failures ? true : undefined));
      assert.equal(await listAsCarol(), 200);
    });
  }

  it('drops the webhook once the file no longer names it', async () => {
    await writeFile(path, authzConfig([rbac]));
    assert.equal(await eventually('carol forbidden again', async () => ((await listAsCarol()) === 403 ? 403 : undefined)), 403);
  });
});
