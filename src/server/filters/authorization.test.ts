import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isStatusError } from '../../apimachinery/errors/status-error.ts';
import type { Attributes, AuthorizationResult } from '../../authz/authorizer.ts';
import { parseRequestInfo } from '../../endpoints/request/request-info.ts';
import { RequestState } from '../../endpoints/request/state.ts';
import { withAuthorization } from './authorization.ts';

interface Captured { code?: number; body?: string; headers: Record<string, unknown> }

function run(method: string, url: string, result: AuthorizationResult): { seen: Attributes[]; passed: boolean; res: Captured; done: Promise<void> } {
  const seen: Attributes[] = [];
  const out = { seen, passed: false, res: { headers: {} } as Captured, done: Promise.resolve() };
  const state = new RequestState(url);
  state.info = parseRequestInfo(method, state.path, state.url.searchParams);
  state.user = { name: 'alice', groups: ['system:authenticated'] };
  const res = {
    headersSent: false,
    set statusCode(c: number) { out.res.code = c; },
    setHeader(k: string, v: unknown) { out.res.headers[k] = v; },
    end(b: Buffer) { out.res.body = b.toString(); },
  } as unknown as ServerResponse;
  const handler = withAuthorization({ authorize: (a) => { seen.push(a); return Promise.resolve(result); } })(() => {
    out.passed = true;
    return Promise.resolve();
  });
  out.done = handler({ method, url } as IncomingMessage, res, state);
  return out;
}

describe('withAuthorization', () => {
  it('passes allowed requests on, with the attributes of the request', async () => {
    const r = run('GET', '/apis/apps/v1/namespaces/ns/deployments/web/scale', { decision: 'Allow', reason: '' });
    await r.done;
    assert.equal(r.passed, true);
    assert.deepEqual(r.seen[0], {
      user: { name: 'alice', groups: ['system:authenticated'] }, verb: 'get', resourceRequest: true,
      path: '/apis/apps/v1/namespaces/ns/deployments/web/scale', apiGroup: 'apps', apiVersion: 'v1', resource: 'deployments',
      subresource: 'scale', namespace: 'ns', name: 'web',
    });
  });

  it('a list or watch of one object by metadata.name is authorized for that name', async () => {
    const r = run('GET', '/api/v1/namespaces/ns/pods?watch=true&fieldSelector=metadata.name%3Dweb', { decision: 'Allow', reason: '' });
    await r.done;
    assert.deepEqual([r.seen[0]?.verb, r.seen[0]?.name], ['watch', 'web']);
    const bad = run('GET', '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Da%2Fb', { decision: 'Allow', reason: '' });
    await bad.done;
    assert.deepEqual([bad.seen[0]?.verb, bad.seen[0]?.name], ['list', '']);
  });

  it('refuses the rest with kube\'s 403', async () => {
    const r = run('DELETE', '/api/v1/namespaces/ns/pods', { decision: 'NoOpinion', reason: '' });
    await assert.rejects(r.done, (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.equal(err.status.message, 'pods is forbidden: User "alice" cannot deletecollection resource "pods" in API group "" in the namespace "ns"');
      return true;
    });
    assert.equal(r.passed, false);
  });

  it('answers 500 when the authorizers failed to evaluate', async () => {
    const r = run('GET', '/api', { decision: 'NoOpinion', reason: '', error: new Error('boom') });
    await r.done;
    assert.equal(r.passed, false);
    assert.equal(r.res.code, 500);
    assert.equal(r.res.body, 'Internal Server Error: "/api": boom\n');
  });
});
