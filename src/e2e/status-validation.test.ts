// Status-update and RBAC rule validation (testing/status-validation-corpus.ts) against kube-apiserver
// v1.36: each status case creates a valid object and PUTs one fault to its status subresource, each
// RBAC case is a dry-run create, each target case a PUT whose body and URL disagree. Compared with kube's recorded answers
// (testing/fixtures/status-validation-kube.json) and, when the oracle is built, the live server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RBAC_CASES, STATUS_CASES } from './testing/status-validation-corpus.ts';
import { startSuite, type Suite } from './testing/suite.ts';
import type { RawRequest, RawResponse } from './testing/https-client.ts';
import { describeValidationCorpus, patch, post, put, putBack, type ValidationCase } from './testing/validation-differential.ts';

type Obj = Record<string, unknown>;
const nameOf = (o: Obj): string => String((o['metadata'] as Obj)['name']);

/** The status `mutate` sets, as a merge patch of the created object's status subresource. */
const statusPatch = (collection: string, mutate: (o: Obj) => void) => (created: RawResponse): RawRequest => {
  const o: Obj = {};
  mutate(o);
  return patch(`${collection}/${nameOf(created.json() as Obj)}/status`, { status: o['status'] });
};

const statusCases: ValidationCase[] = STATUS_CASES.map((c) => ({
  name: c.name,
  // an APIService's name is its version and group, not the case's name
  requests: (name) => [post(c.base.collection, c.base.body(name)), c.viaPatch === true ? statusPatch(c.base.collection, c.mutate)
    : putBack((o) => `${c.base.collection}/${nameOf(o)}/status`, c.mutate)],
}));

/** A PUT whose body does not name the object of its URL: refused before storage, whatever is stored. */
const cm = (ns: string): string => `/api/v1/namespaces/${ns}/configmaps`;
const targetCases: ValidationCase[] = [
  { name: 'put: body without a name', requests: (name, ns) => [put(`${cm(ns)}/${name}`, { metadata: {} })] },
  { name: 'put: body naming another object, with a uid', requests: (name, ns) => [put(`${cm(ns)}/${name}`, { metadata: { name: 'other', uid: 'u' } })] },
  { name: 'put: body in another namespace', requests: (name, ns) => [put(`${cm(ns)}/${name}?dryRun=All`, { metadata: { name, namespace: 'other' } })] },
  { name: 'put: stored object, body naming another', requests: (name, ns) => [post(cm(ns), { metadata: { name } }), putBack(`${cm(ns)}/${name}`, (o) => { (o['metadata'] as Obj)['name'] = 'other'; })] },
  { name: 'put: status of another object', requests: (name, ns) => [post(cm(ns), { metadata: { name } }), put(`/api/v1/namespaces/${ns}/pods/${name}/status`, { metadata: { name: 'other', uid: 'u' } })] },
];
const rbacCases: ValidationCase[] = RBAC_CASES.map((c) => ({ name: c.name, requests: () => [post(`${c.collection}?dryRun=All`, c.body)] }));

describeValidationCorpus({
  title: 'status-update, RBAC rule and update-target validation',
  cases: [...statusCases, ...rbacCases, ...targetCases],
  fixture: new URL('./testing/fixtures/status-validation-kube.json', import.meta.url),
});

describe('a refused status update', () => {
  let suite: Suite;
  before(async () => { suite = await startSuite(); });
  after(async () => { await suite?.close(); });

  it('is not stored', async () => {
    const base = STATUS_CASES.find((c) => c.name === 'pvc: negative capacity');
    assert.ok(base !== undefined);
    const path = base.base.collection;
    const created = await suite.request(post(path, base.base.body('kept')));
    assert.equal(created.status, 201, created.text);
    const refused = await suite.request(putBack(`${path}/kept/status`, base.mutate)(created));
    assert.equal(refused.status, 422, refused.text);
    const stored = (await suite.request({ method: 'GET', path: `${path}/kept` })).json() as { status?: Obj };
    assert.equal(stored.status?.['capacity'], undefined);
  });
});
