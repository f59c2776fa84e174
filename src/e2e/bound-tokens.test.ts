// Service account tokens bound to a Pod, a Secret or a Node (kubectl create token
// --bound-object-kind) authenticate only while that object lives: once it is deleted or recreated
// under the same name, requests get kube's 401 and TokenReview says why, in kube's words. Results
// are cached for kube's 10 seconds, so the tests wait for the change rather than expect it at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asStatus } from './testing/https-client.ts';
import { at } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-bound-tokens';
const AUD = 'https://kubernetes.default.svc.cluster.local';

describe('bound service account tokens', () => {
  let s: Suite;
  const create = async (path: string, obj: object): Promise<string> => {
    const r = await s.request({ method: 'POST', path, body: JSON.stringify(obj) });
    assert.equal(r.status, 201, r.text);
    return String(at(r.json(), 'metadata', 'uid'));
  };
  const del = async (path: string): Promise<void> => {
    const r = await s.request({ method: 'DELETE', path, body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 }) });
    assert.equal(r.status, 200, r.text);
  };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
    spec: { serviceAccountName: 'robot', nodeName: 'n', containers: [{ name: 'c', image: 'nginx' }] } };
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } };
  const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } };
  const sa2 = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot2' } };

  /** kubectl create token, as a user would ask for one (for `robot` unless --sa names another). */
  const token = async (...args: string[]): Promise<string> => {
    const sa = args[0] === '--sa' ? args[1] ?? '' : 'robot';
    const rest = args[0] === '--sa' ? args.slice(2) : args;
    const r = await s.kubectl(['-n', NS, 'create', 'token', sa, ...rest]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim();
  };
  /** The status code of a read with the token. */
  const use = async (t: string): Promise<number> =>
    (await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps`, auth: false, headers: { Authorization: `Bearer ${t}` } })).status;
  const review = async (t: string, audiences?: string[]): Promise<unknown> => {
    const r = await s.request({ method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews',
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: t, ...(audiences ? { audiences } : {}) } }) });
    assert.equal(r.status, 201, r.text);
    return at(r.json(), 'status');
  };
  /** Waits (through the authentication cache) until the token is refused, then checks the 401 body. */
  const refused = async (t: string): Promise<void> => {
    await eventually('the token to be refused', async () => ((await use(t)) === 401 ? true : undefined));
    const r = await s.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/configmaps`, auth: false, headers: { Authorization: `Bearer ${t}` } });
    assert.equal(r.status, 401);
    const st = asStatus(r.json());
    assert.equal(st.reason, 'Unauthorized');
    assert.equal(st.message, 'Unauthorized');
  };

  before(async () => {
    s = await startSuite();
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await create(`/api/v1/namespaces/${NS}/serviceaccounts`, sa);
    await create(`/api/v1/namespaces/${NS}/serviceaccounts`, sa2);
  });
  after(async () => { await s?.close(); });

  // Independent cases, run together so that their waits for the cache overlap.
  describe('each credential', { concurrency: true }, () => {
    it('a token bound to a pod works until the pod is deleted', async () => {
      const nodeUID = await create('/api/v1/nodes', node);
      const podUID = await create(`/api/v1/namespaces/${NS}/pods`, pod);
      const t = await token('--bound-object-kind', 'Pod', '--bound-object-name', 'p');
      assert.equal(await use(t), 200);
      const ok = await review(t);
      assert.equal(at(ok, 'authenticated'), true);
      assert.deepEqual(at(ok, 'user', 'extra'), {
        'authentication.kubernetes.io/credential-id': at(ok, 'user', 'extra', 'authentication.kubernetes.io/credential-id'),
        'authentication.kubernetes.io/pod-name': ['p'], 'authentication.kubernetes.io/pod-uid': [podUID],
        'authentication.kubernetes.io/node-name': ['n'], 'authentication.kubernetes.io/node-uid': [nodeUID],
      });
      await del(`/api/v1/namespaces/${NS}/pods/p`);
      await refused(t);
      assert.deepEqual(await review(t), { user: {}, error: 'service account token has been invalidated' });
      await del('/api/v1/nodes/n');
    });

    it('a token bound to a secret stops working when the secret is recreated', async () => {
      const oldUID = await create(`/api/v1/namespaces/${NS}/secrets`, secret);
      const t = await token('--bound-object-kind', 'Secret', '--bound-object-name', 's');
      assert.equal(await use(t), 200);
      await del(`/api/v1/namespaces/${NS}/secrets/s`);
      const newUID = await create(`/api/v1/namespaces/${NS}/secrets`, secret);
      await refused(t);
      assert.deepEqual(await review(t), { user: {}, error: `secret UID (${newUID}) does not match service account secret ref claim (${oldUID})` });
    });

    it('a token bound to a node stops working when the node is deleted', async () => {
      await create('/api/v1/nodes', { ...node, metadata: { name: 'n2' } });
      const t = await token('--bound-object-kind', 'Node', '--bound-object-name', 'n2');
      assert.equal(await use(t), 200);
      await del('/api/v1/nodes/n2');
      await refused(t);
      assert.deepEqual(await review(t), { user: {}, error: 'service account token has been invalidated' });
    });

    it('a token for another audience is refused, and accepted by a review for that audience', async () => {
      const t = await token('--audience', 'vault');
      assert.equal(await use(t), 401);
      assert.deepEqual(await review(t), { user: {}, error: `token audiences ["vault"] is invalid for the target audiences ["${AUD}"]` });
      const ok = await review(t, ['vault', 'other']);
      assert.equal(at(ok, 'authenticated'), true);
      assert.deepEqual(at(ok, 'audiences'), ['vault']);
    });

    it('a static token is only for the API audience', async () => {
      const api = await review(s.creds.token);
      assert.equal(at(api, 'authenticated'), true);
      assert.deepEqual(at(api, 'audiences'), [AUD]);
      assert.deepEqual(await review(s.creds.token, ['vault']), { user: {}, error: 'invalid bearer token' });
    });

    it('any token of a service account stops working when the service account is recreated', async () => {
      const t = await token('--sa', 'robot2');
      assert.equal(await use(t), 200);
      await del(`/api/v1/namespaces/${NS}/serviceaccounts/robot2`);
      await create(`/api/v1/namespaces/${NS}/serviceaccounts`, sa2);
      await refused(t);
      assert.match(String(at(await review(t), 'error')), /^service account UID \(\S+\) does not match claim \(\S+\)$/);
    });
  });

  it('the server stays healthy', async () => {
    const r = await s.request({ method: 'GET', path: '/readyz' });
    assert.equal(r.status, 200, r.text);
  });
});
