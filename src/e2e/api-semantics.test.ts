// kube-apiserver's API semantics over raw HTTPS: server-side apply and managedFields, field
// validation, list paging and resourceVersion rules, watches, and deletion options.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asStatus, type RawResponse } from './testing/https-client.ts';
import { configMap, expectJSON, warnings, type Obj, type ObjList } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-api';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

function failure(message: string, reason: string, code: number, details?: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason,
    ...(details === undefined ? {} : { details }), code };
}

function listOptionsInvalid(detail: string, causes: { reason: string; message: string }[]): Record<string, unknown> {
  return failure(`ListOptions.meta.k8s.io "" is invalid: ${detail}`, 'Invalid', 422, {
    group: 'meta.k8s.io', kind: 'ListOptions', causes: causes.map((c) => ({ ...c, field: 'resourceVersionMatch' })),
  });
}

describe('kube-apiserver API semantics', () => {
  let s: Suite;
  const post = async (path: string, body: string): Promise<Obj> =>
    expectJSON<Obj>(await s.request({ method: 'POST', path, body }), 201, `POST ${path}`);
  const get = (path: string): Promise<RawResponse> => s.request({ method: 'GET', path });
  const apply = (name: string, yaml: string, query: string): Promise<RawResponse> =>
    s.request({ method: 'PATCH', path: `${CMS}/${name}${query}`, body: yaml, contentType: APPLY });

  before(async () => {
    s = await startSuite();
    await post('/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }));
  });
  after(async () => { await s?.close(); });

  describe('server-side apply', () => {
    const cfg = (data: Record<string, string>): string =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join('\n')}\n`;

    it('creates with 201, updates with 200, and records Apply and Update managers', async () => {
      const created = expectJSON<Obj>(await apply('ssa', cfg({ a: '1', b: '2' }), '?fieldManager=mgr-a'), 201, 'apply create');
      assert.deepEqual(created.data, { a: '1', b: '2' });
      const [entry] = created.metadata.managedFields ?? [];
      assert.equal(created.metadata.managedFields?.length, 1);
      assert.equal(entry?.manager, 'mgr-a');
      assert.equal(entry?.operation, 'Apply');
      assert.equal(entry?.apiVersion, 'v1');
      assert.equal(entry?.fieldsType, 'FieldsV1');
      assert.deepEqual(entry?.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} } });
      assert.match(entry?.time ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      const updated = expectJSON<Obj>(await apply('ssa', cfg({ a: '1', b: '3' }), '?fieldManager=mgr-a'), 200, 'apply update');
      assert.deepEqual(updated.data, { a: '1', b: '3' });

      // Another manager takes `a` (and adds `c`) with a plain merge patch: an Update entry.
      const patched = expectJSON<Obj>(await s.request({ method: 'PATCH', path: `${CMS}/ssa?fieldManager=mgr-b`,
        body: JSON.stringify({ data: { a: 'x', c: '3' } }), contentType: MERGE }), 200, 'merge patch');
      const b = patched.metadata.managedFields?.find((m) => m.manager === 'mgr-b');
      assert.equal(b?.operation, 'Update');
      assert.deepEqual(b?.fieldsV1, { 'f:data': { 'f:a': {}, 'f:c': {} } });
      assert.deepEqual(patched.metadata.managedFields?.find((m) => m.manager === 'mgr-a')?.fieldsV1, { 'f:data': { 'f:b': {} } });
    });

    it('answers 409 Conflict naming the manager and field that conflict', async () => {
      const r = await apply('ssa', cfg({ a: '1', b: '3' }), '?fieldManager=mgr-a');
      assert.equal(r.status, 409, r.text);
      assert.deepEqual(r.json(), failure('Apply failed with 1 conflict: conflict with "mgr-b" using v1: .data.a', 'Conflict', 409, {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "mgr-b" using v1', field: '.data.a' }],
      }));
      const live = expectJSON<Obj>(await get(`${CMS}/ssa`), 200, 'get');
      assert.equal(live.data?.['a'], 'x');
    });

    it('force=true takes ownership; a field dropped from the config goes when no one else owns it', async () => {
      const forced = expectJSON<Obj>(await apply('ssa', cfg({ a: '1', b: '3' }), '?fieldManager=mgr-a&force=true'), 200, 'force');
      assert.deepEqual(forced.data, { a: '1', b: '3', c: '3' });
      assert.deepEqual(forced.metadata.managedFields?.find((m) => m.manager === 'mgr-b')?.fieldsV1, { 'f:data': { 'f:c': {} } });
      assert.deepEqual(forced.metadata.managedFields?.find((m) => m.manager === 'mgr-a')?.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} } });

      // `b` is mgr-a's alone and goes; `c` belongs to mgr-b and stays.
      const dropped = expectJSON<Obj>(await apply('ssa', cfg({ a: '1' }), '?fieldManager=mgr-a'), 200, 'drop b');
      assert.deepEqual(dropped.data, { a: '1', c: '3' });
    });

    it('an apply without fieldManager is 422 on PatchOptions', async () => {
      const r = await apply('ssa', cfg({ a: '1' }), '');
      assert.equal(r.status, 422, r.text);
      assert.deepEqual(r.json(), failure('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        'Invalid', 422, { group: 'meta.k8s.io', kind: 'PatchOptions',
          causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] }));
    });

    // kube-apiserver resets on an empty list and on a single empty entry (kubernetes/kubernetes#91748).
    it('managedFields: [] and [{}] in an update reset them', async () => {
      const before = expectJSON<Obj>(await get(`${CMS}/ssa`), 200, 'get');
      assert.ok((before.metadata.managedFields ?? []).length > 0);
      const empty = expectJSON<Obj>(await s.request({ method: 'PATCH', path: `${CMS}/ssa`,
        body: JSON.stringify({ metadata: { managedFields: [] } }), contentType: MERGE }), 200, 'managedFields []');
      assert.equal(empty.metadata.managedFields, undefined);
      // Updates of an object without managedFields are not tracked (skip-non-applied); an apply starts again.
      const labeled = expectJSON<Obj>(await s.request({ method: 'PATCH', path: `${CMS}/ssa?fieldManager=labeler`,
        body: JSON.stringify({ metadata: { labels: { x: 'y' } } }), contentType: MERGE }), 200, 'label');
      assert.equal(labeled.metadata.managedFields, undefined);
      const applied = expectJSON<Obj>(await s.request({ method: 'PATCH', path: `${CMS}/ssa?fieldManager=applier`,
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { c: '3' } }),
        contentType: 'application/apply-patch+yaml' }), 200, 'apply');
      assert.ok((applied.metadata.managedFields ?? []).some((m) => m.manager === 'applier' && m.operation === 'Apply'));
      const reset = expectJSON<Obj>(await s.request({ method: 'PATCH', path: `${CMS}/ssa`,
        body: JSON.stringify({ metadata: { managedFields: [{}] } }), contentType: MERGE }), 200, 'managedFields [{}]');
      assert.equal(reset.metadata.managedFields, undefined);
      assert.deepEqual(reset.data, { a: '1', c: '3' });
    });
  });

  it('a PUT without resourceVersion is an unconditional update for configmaps', async () => {
    await post(CMS, configMap('uncond', { a: '1' }));
    const r = await s.request({ method: 'PUT', path: `${CMS}/uncond`, body: configMap('uncond', { a: '2' }) });
    assert.deepEqual(expectJSON<Obj>(r, 200, 'unconditional PUT').data, { a: '2' });
  });

  describe('field validation', () => {
    const pod = (name: string, extraSpec: string): string =>
      `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}"},"spec":{"containers":[{"name":"c","image":"busybox"}]${extraSpec}}}`;

    it('Warn creates and sends one 299 Warning header per problem', async () => {
      const r = await s.request({ method: 'POST', path: `${PODS}?fieldValidation=Warn`, body: pod('warn', ',"foo":1,"restartPolicy":"Always","restartPolicy":"Never"') });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(warnings(r), ['299 - "unknown field \\"spec.foo\\""', '299 - "duplicate field \\"spec.restartPolicy\\""']);
    });

    it('Strict refuses with 400 listing unknown and duplicate fields', async () => {
      const r = await s.request({ method: 'POST', path: `${PODS}?fieldValidation=Strict`, body: pod('strict', ',"foo":1,"restartPolicy":"Always","restartPolicy":"Never"') });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.json(), failure('Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo", duplicate field "spec.restartPolicy"',
        'BadRequest', 400));
      assert.equal((await get(`${PODS}/strict`)).status, 404);
    });

    it('Ignore creates silently', async () => {
      const r = await s.request({ method: 'POST', path: `${PODS}?fieldValidation=Ignore`, body: pod('ignore', ',"foo":1') });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(warnings(r), []);
    });

    it('an invalid value is 422 Invalid with the field cause', async () => {
      const r = await s.request({ method: 'POST', path: PODS, body: pod('badpolicy', ',"restartPolicy":"Sometimes"') });
      assert.equal(r.status, 422, r.text);
      const msg = 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"';
      assert.deepEqual(r.json(), failure(`Pod "badpolicy" is invalid: spec.restartPolicy: ${msg}`, 'Invalid', 422, {
        name: 'badpolicy', kind: 'Pod', causes: [{ reason: 'FieldValueNotSupported', message: msg, field: 'spec.restartPolicy' }],
      }));
    });
  });

  describe('lists', () => {
    const LIST = `${CMS}?labelSelector=grp%3Dpage`;
    const names = (l: ObjList): string[] => l.items.map((i) => i.metadata.name);

    it('pages with limit/continue from one snapshot, with remainingItemCount', async () => {
      for (const n of ['p1', 'p2', 'p3', 'p4', 'p5']) await post(CMS, configMap(n, { v: '0' }, { labels: { grp: 'page' } }));
      const p1 = expectJSON<ObjList>(await get(`${LIST}&limit=2`), 200, 'page 1');
      assert.deepEqual(names(p1), ['p1', 'p2']);
      // As kube's store: remainingItemCount only when no selector filters the list.
      assert.equal(p1.metadata.remainingItemCount, undefined);
      assert.ok(p1.metadata.continue);
      const all = expectJSON<ObjList>(await get(CMS), 200, 'all').items.length;
      const unfiltered = expectJSON<ObjList>(await get(`${CMS}?limit=2`), 200, 'unfiltered page');
      assert.equal(unfiltered.metadata.remainingItemCount, all - 2);
      // Writes between pages are not seen by the pages that follow.
      await post(CMS, configMap('p6', {}, { labels: { grp: 'page' } }));
      expectJSON(await s.request({ method: 'DELETE', path: `${CMS}/p3` }), 200, 'delete p3');
      expectJSON(await s.request({ method: 'PATCH', path: `${CMS}/p4`, body: '{"data":{"v":"1"}}', contentType: MERGE }), 200, 'patch p4');
      const p2 = expectJSON<ObjList>(await get(`${LIST}&limit=2&continue=${encodeURIComponent(p1.metadata.continue ?? '')}`), 200, 'page 2');
      assert.deepEqual(names(p2), ['p3', 'p4']);
      assert.equal(p2.items[1]?.data?.['v'], '0');
      assert.equal(p2.metadata.resourceVersion, p1.metadata.resourceVersion);
      const p3 = expectJSON<ObjList>(await get(`${LIST}&limit=2&continue=${encodeURIComponent(p2.metadata.continue ?? '')}`), 200, 'page 3');
      assert.deepEqual(names(p3), ['p5']);
      assert.equal(p3.metadata.continue, undefined);
      assert.equal(p3.metadata.remainingItemCount, undefined);
      assert.deepEqual(names(expectJSON<ObjList>(await get(LIST), 200, 'fresh list')), ['p1', 'p2', 'p4', 'p5', 'p6']);
    });

    it('refuses bad resourceVersionMatch combinations with 422 on ListOptions', async () => {
      const rv = expectJSON<ObjList>(await get(CMS), 200, 'list').metadata.resourceVersion ?? '';
      const first = expectJSON<ObjList>(await get(`${LIST}&limit=1`), 200, 'page');
      const cont = encodeURIComponent(first.metadata.continue ?? '');
      const unlessRV = 'resourceVersionMatch is forbidden unless resourceVersion is provided';
      const cases = [
        { name: 'match without resourceVersion', query: '?resourceVersionMatch=NotOlderThan',
          want: listOptionsInvalid(`resourceVersionMatch: Forbidden: ${unlessRV}`, [{ reason: 'FieldValueForbidden', message: `Forbidden: ${unlessRV}` }]) },
        { name: 'Exact at 0', query: '?resourceVersion=0&resourceVersionMatch=Exact',
          want: listOptionsInvalid('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
            [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"' }]) },
        { name: 'match with continue', query: `?limit=1&continue=${cont}&resourceVersion=${rv}&resourceVersionMatch=Exact`,
          want: listOptionsInvalid('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
            [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden when continue is provided' }]) },
        { name: 'unknown match', query: `?resourceVersion=${rv}&resourceVersionMatch=Newest`,
          want: listOptionsInvalid('resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
            [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""' }]) },
      ];
      for (const c of cases) {
        const r = await get(CMS + c.query);
        assert.equal(r.status, 422, `${c.name}: ${r.text}`);
        assert.deepEqual(r.json(), c.want, c.name);
      }
    });

    it('a resourceVersion newer than the store is 504 Timeout "Too large resource version"', async () => {
      const cur = Number(expectJSON<ObjList>(await get(CMS), 200, 'list').metadata.resourceVersion);
      const want = cur + 1000;
      for (const q of [`?resourceVersion=${want}`, `?resourceVersion=${want}&resourceVersionMatch=NotOlderThan`]) {
        const r = await get(CMS + q);
        assert.equal(r.status, 504, `${q}: ${r.text}`);
        const st = asStatus(r.json());
        assert.equal(st.reason, 'Timeout', q);
        assert.match(String(st.message), new RegExp(`^Too large resource version: ${want}, current: \\d+$`), q);
        assert.deepEqual(st.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }, q);
      }
    });

    it('Exact and NotOlderThan read at and after the given resourceVersion', async () => {
      const at = expectJSON<ObjList>(await get(LIST), 200, 'list');
      await post(CMS, configMap('p7', {}, { labels: { grp: 'page' } }));
      const rv = at.metadata.resourceVersion ?? '';
      const exact = expectJSON<ObjList>(await get(`${LIST}&resourceVersion=${rv}&resourceVersionMatch=Exact`), 200, 'exact');
      assert.deepEqual(names(exact), names(at));
      assert.equal(exact.metadata.resourceVersion, rv);
      const newer = expectJSON<ObjList>(await get(`${LIST}&resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`), 200, 'notolderthan');
      assert.deepEqual(names(newer), [...names(at), 'p7']);
    });
  });

  describe('deletion', () => {
    const del = (path: string, opts?: Record<string, unknown>): Promise<RawResponse> => s.request({ method: 'DELETE', path,
      ...(opts === undefined ? {} : { body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...opts }) }) });
    const gone = (path: string): Promise<true> => eventually(`${path} to be gone`, async () => ((await get(path)).status === 404 ? true : undefined));
    const pod = (name: string, nodeName?: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name },
      spec: { containers: [{ name: 'c', image: 'busybox' }], ...(nodeName === undefined ? {} : { nodeName }) } });

    it('refuses unmet uid and resourceVersion preconditions with 409 Conflict', async () => {
      const cm = await post(CMS, configMap('pre', { a: '1' }));
      const cases = [
        { name: 'uid', pre: { uid: 'bogus' }, detail: `UID in precondition: bogus, UID in object meta: ${cm.metadata.uid ?? ''}` },
        { name: 'resourceVersion', pre: { resourceVersion: '1' },
          detail: `ResourceVersion in precondition: 1, ResourceVersion in object meta: ${cm.metadata.resourceVersion ?? ''}` },
      ];
      for (const c of cases) {
        const r = await del(`${CMS}/pre`, { preconditions: c.pre });
        assert.equal(r.status, 409, `${c.name}: ${r.text}`);
        assert.deepEqual(r.json(), failure(`Operation cannot be fulfilled on configmaps "pre": Precondition failed: ${c.detail}`, 'Conflict', 409,
          { name: 'pre', kind: 'configmaps' }), c.name);
      }
      expectJSON(await del(`${CMS}/pre`, { preconditions: { uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion } }), 200, 'met');
      assert.equal((await get(`${CMS}/pre`)).status, 404);
    });

    it('a bound pod is deleted gracefully (30s), an unbound one at once, gracePeriodSeconds=0 at once', async () => {
      await post(PODS, pod('bound', 'node-1'));
      const graceful = expectJSON<Obj>(await del(`${PODS}/bound`), 200, 'delete bound');
      assert.ok(graceful.metadata.deletionTimestamp);
      assert.equal(graceful.metadata.deletionGracePeriodSeconds, 30);
      const still = expectJSON<Obj>(await get(`${PODS}/bound`), 200, 'bound pod still there');
      assert.equal(still.metadata.deletionGracePeriodSeconds, 30);
      expectJSON(await del(`${PODS}/bound`, { gracePeriodSeconds: 0 }), 200, 'force delete');
      assert.equal((await get(`${PODS}/bound`)).status, 404);

      await post(PODS, pod('unbound'));
      expectJSON(await del(`${PODS}/unbound`), 200, 'delete unbound');
      assert.equal((await get(`${PODS}/unbound`)).status, 404);

      await post(PODS, pod('bound0', 'node-1'));
      expectJSON(await s.request({ method: 'DELETE', path: `${PODS}/bound0?gracePeriodSeconds=0` }), 200, 'grace 0 in query');
      assert.equal((await get(`${PODS}/bound0`)).status, 404);
    });

    it('Orphan and Foreground set their finalizer, then the garbage collector finishes the deletion', async () => {
      const withDependent = async (owner: string): Promise<string> => {
        const o = await post(CMS, configMap(owner, {}));
        await post(CMS, configMap(`${owner}-dep`, {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner,
          uid: o.metadata.uid ?? '', blockOwnerDeletion: true }] }));
        return `${CMS}/${owner}-dep`;
      };
      const orphanDep = await withDependent('orphan-owner');
      const orphaning = expectJSON<Obj>(await del(`${CMS}/orphan-owner`, { propagationPolicy: 'Orphan' }), 200, 'orphan');
      assert.deepEqual(orphaning.metadata.finalizers, ['orphan']);
      assert.ok(orphaning.metadata.deletionTimestamp);
      await gone(`${CMS}/orphan-owner`);
      const orphan = expectJSON<Obj>(await get(orphanDep), 200, 'orphaned dependent');
      assert.equal(orphan.metadata.ownerReferences, undefined);

      const fgDep = await withDependent('fg-owner');
      const foreground = expectJSON<Obj>(await del(`${CMS}/fg-owner`, { propagationPolicy: 'Foreground' }), 200, 'foreground');
      assert.deepEqual(foreground.metadata.finalizers, ['foregroundDeletion']);
      await gone(fgDep);
      await gone(`${CMS}/fg-owner`);

      const bgDep = await withDependent('bg-owner');
      expectJSON(await del(`${CMS}/bg-owner`, { propagationPolicy: 'Background' }), 200, 'background');
      assert.equal((await get(`${CMS}/bg-owner`)).status, 404);
      await gone(bgDep);
    });

    it('a custom finalizer holds the object until it is removed', async () => {
      await post(CMS, configMap('held', {}, { finalizers: ['example.com/hold'] }));
      const deleting = expectJSON<Obj>(await del(`${CMS}/held`), 200, 'delete held');
      assert.ok(deleting.metadata.deletionTimestamp);
      assert.deepEqual(deleting.metadata.finalizers, ['example.com/hold']);
      assert.ok(expectJSON<Obj>(await get(`${CMS}/held`), 200, 'still held').metadata.deletionTimestamp);
      expectJSON(await s.request({ method: 'PATCH', path: `${CMS}/held`, body: '{"metadata":{"finalizers":null}}', contentType: MERGE }), 200, 'release');
      assert.equal((await get(`${CMS}/held`)).status, 404);
    });

    it('dryRun keeps the object; deletecollection deletes what the selector matches', async () => {
      await post(CMS, configMap('dry', {}));
      expectJSON(await s.request({ method: 'DELETE', path: `${CMS}/dry?dryRun=All` }), 200, 'dry run');
      assert.equal((await get(`${CMS}/dry`)).status, 200);

      for (const n of ['dc1', 'dc2']) await post(CMS, configMap(n, {}, { labels: { grp: 'dc' } }));
      await post(CMS, configMap('dc3', {}, { labels: { grp: 'keep' } }));
      const deleted = expectJSON<ObjList>(await s.request({ method: 'DELETE', path: `${CMS}?labelSelector=grp%3Ddc` }), 200, 'deletecollection');
      assert.equal(deleted.kind, 'ConfigMapList');
      assert.deepEqual(deleted.items.map((i) => i.metadata.name).sort(), ['dc1', 'dc2']);
      const left = expectJSON<ObjList>(await get(`${CMS}?labelSelector=grp%20in%20(dc,keep)`), 200, 'left');
      assert.deepEqual(left.items.map((i) => i.metadata.name), ['dc3']);
    });
  });
});
