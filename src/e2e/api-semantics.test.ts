// kube-apiserver's API semantics over raw HTTPS: server-side apply and managedFields, field
// validation, list paging and resourceVersion rules, watches, and deletion options.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeProtobuf } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import { asStatus, type RawResponse } from './testing/https-client.ts';
import { configMap, expectJSON, warnings, type Obj, type ObjList } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-api';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const DEPLOYS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/** A Deployment "web" as YAML; `extra` goes into the nginx container. */
const deploymentYAML = (name: string, replicas: number, extra = ''): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${NS}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: nginx
        image: nginx${extra}
`;

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

    it('a field the schema does not declare is a 500 whatever fieldValidation says, and nothing is written', async () => {
      const yaml = deploymentYAML('undeclared', 1, '\n        foo: 1');
      for (const v of ['Ignore', 'Warn', 'Strict']) {
        const r = await s.request({ method: 'PATCH', path: `${DEPLOYS}/undeclared?fieldManager=m&fieldValidation=${v}`, body: yaml, contentType: APPLY });
        assert.equal(r.status, 500, `${v}: ${r.text}`);
        assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
          message: `failed to create typed patch object (${NS}/undeclared; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="nginx"].foo: field not declared in schema` }, v);
      }
      assert.equal((await get(`${DEPLOYS}/undeclared`)).status, 404);
    });

    it('duplicate keys: Strict is a 400 after the apply, Warn warns per key, Ignore keeps the last value', async () => {
      const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: NAME\ndata:\n  k: "1"\n  k: "2"\n  j: "1"\n  j: "3"\n';
      const applyDup = (name: string, v: string): Promise<RawResponse> => apply(name, yaml.replace('NAME', name), `?fieldManager=m${v === '' ? '' : `&fieldValidation=${v}`}`);
      const strict = await applyDup('dup-strict', 'Strict');
      assert.equal(strict.status, 400, strict.text);
      assert.deepEqual(strict.json(), failure('error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "k" already set in map\n  line 9: key "j" already set in map', 'BadRequest', 400));
      assert.equal((await get(`${CMS}/dup-strict`)).status, 404);
      for (const c of [{ v: '', warned: true }, { v: 'Warn', warned: true }, { v: 'Ignore', warned: false }]) {
        const name = `dup-${c.v.toLowerCase() || 'default'}`;
        const r = await applyDup(name, c.v);
        assert.deepEqual(expectJSON<Obj>(r, 201, name).data, { k: '2', j: '3' });
        assert.deepEqual(warnings(r), c.warned ? ['299 - "line 7: key \\"k\\" already set in map"', '299 - "line 9: key \\"j\\" already set in map"'] : [], name);
      }
    });

    it('an apply body that is not a map is a 400 from the YAML decoder', async () => {
      const cases = [
        { name: 'a list', body: '- a\n- b\n', message: 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}' },
        { name: 'a string', body: 'hello\n', message: 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}' },
      ];
      for (const c of cases) {
        const r = await apply('notamap', c.body, '?fieldManager=m');
        assert.equal(r.status, 400, `${c.name}: ${r.text}`);
        assert.deepEqual(r.json(), failure(c.message, 'BadRequest', 400), c.name);
      }
    });

    it('scaling records the scaler as owner of spec.replicas, so a later apply of replicas conflicts', async () => {
      const created = expectJSON<Obj>(await s.request({ method: 'PATCH', path: `${DEPLOYS}/scaled?fieldManager=applier`,
        body: deploymentYAML('scaled', 1), contentType: APPLY }), 201, 'apply');
      assert.ok(JSON.stringify(created.metadata.managedFields).includes('"f:replicas"'));
      const scale = expectJSON<Obj & { spec?: { replicas?: number } }>(await s.request({ method: 'PATCH', path: `${DEPLOYS}/scaled/scale?fieldManager=scaler`,
        body: '{"spec":{"replicas":3}}', contentType: MERGE }), 200, 'scale');
      assert.equal(scale.kind, 'Scale');
      assert.equal(scale.spec?.replicas, 3);
      assert.equal(scale.metadata.managedFields, undefined);
      const dep = expectJSON<Obj>(await get(`${DEPLOYS}/scaled`), 200, 'get');
      const [first, second] = dep.metadata.managedFields ?? [];
      assert.equal(dep.metadata.managedFields?.length, 2);
      assert.equal(first?.manager, 'applier');
      assert.equal(JSON.stringify(first?.fieldsV1).includes('"f:replicas"'), false);
      // kube's ScaleHandler gives the new entry the parent's apiVersion and no time.
      assert.equal(JSON.stringify(second), JSON.stringify({ manager: 'scaler', operation: 'Update', apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' }));

      const again = await s.request({ method: 'PATCH', path: `${DEPLOYS}/scaled?fieldManager=applier`, body: deploymentYAML('scaled', 1), contentType: APPLY });
      assert.equal(again.status, 409, again.text);
      assert.deepEqual(again.json(), failure('Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using apps/v1: .spec.replicas', 'Conflict', 409, {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "scaler" with subresource "scale" using apps/v1', field: '.spec.replicas' }],
      }));

      // A PUT of the Scale by another manager takes replicas over from the first scaler.
      const cur = expectJSON<Obj & { spec?: { replicas?: number } }>(await get(`${DEPLOYS}/scaled/scale`), 200, 'get scale');
      expectJSON(await s.request({ method: 'PUT', path: `${DEPLOYS}/scaled/scale?fieldManager=hpa`,
        body: JSON.stringify({ ...cur, spec: { replicas: 5 } }) }), 200, 'put scale');
      const after = expectJSON<Obj>(await get(`${DEPLOYS}/scaled`), 200, 'get');
      assert.deepEqual(after.metadata.managedFields?.map((m) => [m.manager, m.subresource, m.time]), [['applier', undefined, first?.time], ['hpa', 'scale', undefined]]);
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

    it('items of a built-in list carry no kind or apiVersion, as kube\'s typed lists (the list itself does)', async () => {
      await post(CMS, configMap('typemeta', { v: '0' }, { labels: { grp: 'typemeta' } }));
      const l = expectJSON<ObjList>(await get(`${CMS}?labelSelector=grp%3Dtypemeta`), 200, 'list');
      assert.deepEqual([l.kind, (l as { apiVersion?: string }).apiVersion], ['ConfigMapList', 'v1']);
      assert.deepEqual(l.items.map((i) => [i.metadata.name, i.kind, i.apiVersion]), [['typemeta', undefined, undefined]]);
    });

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
        assert.match(String(st.message), new RegExp(`^Timeout: Too large resource version: ${want}, current: \\d+$`), q);
        assert.deepEqual(st.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }, q);
      }
    });

    it('an invalid continue token or resourceVersion gets kube\'s Go error texts', async () => {
      const token = (json: string): string => Buffer.from(json).toString('base64url');
      const cases = [
        { name: 'continue not JSON', path: `${CMS}?limit=1&continue=abc`,
          want: failure('invalid continue token: continue key is not valid: invalid character \'i\' looking for beginning of value', 'BadRequest', 400) },
        { name: 'continue not base64', path: `${CMS}?limit=1&continue=abcde`,
          want: failure('invalid continue token: continue key is not valid: illegal base64 data at input byte 4', 'BadRequest', 400) },
        { name: 'continue of the wrong type', path: `${CMS}?limit=1&continue=${token('{"v":"meta.k8s.io/v1","rv":"1","start":"x"}')}`,
          want: failure('invalid continue token: continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64', 'BadRequest', 400) },
        { name: 'list resourceVersion', path: `${CMS}?resourceVersion=abc`,
          want: failure('invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax', 'BadRequest', 400) },
        // The watch cache hands the versioner's error up as is: a 500 without reason.
        { name: 'get resourceVersion', path: `${CMS}/p1?resourceVersion=abc`,
          want: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
            message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax' } },
      ];
      for (const c of cases) {
        const r = await get(c.path);
        assert.deepEqual(r.json(), c.want, `${c.name}: ${r.text}`);
        assert.equal(r.status, c.want.code, c.name);
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

    // rest.BeforeDelete checks them first, naming the object by its kind.
    it('refuses unmet uid and resourceVersion preconditions with 409 Conflict', async () => {
      const cm = await post(CMS, configMap('pre', { a: '1' }));
      const cases = [
        { name: 'uid', pre: { uid: 'bogus' },
          detail: `the UID in the precondition (bogus) does not match the UID in record (${cm.metadata.uid ?? ''}). The object might have been deleted and then recreated` },
        { name: 'resourceVersion', pre: { resourceVersion: '1' },
          detail: `the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${cm.metadata.resourceVersion ?? ''}). The object might have been modified` },
      ];
      for (const c of cases) {
        const r = await del(`${CMS}/pre`, { preconditions: c.pre });
        assert.equal(r.status, 409, `${c.name}: ${r.text}`);
        assert.deepEqual(r.json(), failure(`Operation cannot be fulfilled on ConfigMap "pre": ${c.detail}`, 'Conflict', 409,
          { name: 'pre', kind: 'ConfigMap' }), c.name);
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

    it('a second DELETE may only shorten the grace period; a negative one counts as 1s', async () => {
      const created = await post(PODS, pod('shorten', 'node-1'));
      const first = expectJSON<Obj>(await del(`${PODS}/shorten`), 200, 'delete');
      assert.equal(first.metadata.deletionGracePeriodSeconds, 30);
      // The first graceful deletion is a new generation.
      assert.equal((first.metadata as { generation?: number }).generation, ((created.metadata as { generation?: number }).generation ?? 0) + 1);
      const ts = Date.parse(first.metadata.deletionTimestamp ?? '');
      const longer = expectJSON<Obj>(await del(`${PODS}/shorten`, { gracePeriodSeconds: 60 }), 200, 'longer');
      assert.equal(longer.metadata.deletionGracePeriodSeconds, 30);
      assert.equal(longer.metadata.deletionTimestamp, first.metadata.deletionTimestamp);
      assert.equal(longer.metadata.resourceVersion, first.metadata.resourceVersion);
      const shorter = expectJSON<Obj>(await del(`${PODS}/shorten`, { gracePeriodSeconds: 10 }), 200, 'shorter');
      assert.equal(shorter.metadata.deletionGracePeriodSeconds, 10);
      assert.equal(Date.parse(shorter.metadata.deletionTimestamp ?? ''), ts - 20_000);
      assert.equal(expectJSON<Obj>(await get(`${PODS}/shorten`), 200, 'get').metadata.deletionGracePeriodSeconds, 10);
      const negative = expectJSON<Obj>(await del(`${PODS}/shorten`, { gracePeriodSeconds: -5 }), 200, 'negative');
      assert.equal(negative.metadata.deletionGracePeriodSeconds, 1);
      // 1s after the first deadline minus 30s: about now, and never in the past.
      const at = Date.parse(negative.metadata.deletionTimestamp ?? '');
      assert.ok(at >= ts - 29_000 && at <= ts - 28_000, negative.metadata.deletionTimestamp);
      expectJSON(await del(`${PODS}/shorten`, { gracePeriodSeconds: 0 }), 200, 'force');
      await gone(`${PODS}/shorten`);

      await post(PODS, pod('negative', 'node-1'));
      assert.equal(expectJSON<Obj>(await del(`${PODS}/negative?gracePeriodSeconds=-1`), 200, 'negative first').metadata.deletionGracePeriodSeconds, 1);
      expectJSON(await del(`${PODS}/negative`, { gracePeriodSeconds: 0 }), 200, 'force');
    });

    it('invalid DeleteOptions are 422 Invalid on DeleteOptions', async () => {
      await post(CMS, configMap('opts', {}));
      const policies = 'supported values: "Foreground", "Background", "Orphan", "nil"';
      const both = 'orphanDependents and deletionPropagation cannot be both set';
      const cases = [
        { name: 'unknown policy', body: { propagationPolicy: 'Bogus' },
          causes: [{ reason: 'FieldValueNotSupported', message: `Unsupported value: "Bogus": ${policies}`, field: 'propagationPolicy' }] },
        { name: 'policy and orphanDependents', body: { propagationPolicy: 'Background', orphanDependents: true },
          causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Background": ${both}`, field: 'propagationPolicy' }] },
        { name: 'both wrong', body: { propagationPolicy: 'Bogus', orphanDependents: false },
          causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bogus": ${both}`, field: 'propagationPolicy' },
            { reason: 'FieldValueNotSupported', message: `Unsupported value: "Bogus": ${policies}`, field: 'propagationPolicy' }] },
        { name: 'dryRun', body: { dryRun: ['All', 'bogus'] },
          causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: ["All","bogus"]: supported values: "All"', field: 'dryRun' }] },
      ];
      for (const c of cases) {
        const r = await del(`${CMS}/opts`, c.body);
        assert.equal(r.status, 422, `${c.name}: ${r.text}`);
        const msgs = c.causes.map((x) => `${x.field}: ${x.message}`);
        const detail = msgs.length === 1 ? msgs[0] ?? '' : `[${msgs.join(', ')}]`;
        assert.deepEqual(r.json(), failure(`DeleteOptions.meta.k8s.io "" is invalid: ${detail}`, 'Invalid', 422,
          { group: 'meta.k8s.io', kind: 'DeleteOptions', causes: c.causes }), c.name);
      }
      const q = await s.request({ method: 'DELETE', path: `${CMS}/opts?propagationPolicy=Bogus` });
      assert.equal(q.status, 422, q.text);
      assert.equal(asStatus(q.json()).message, `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": ${policies}`);
      assert.equal((await get(`${CMS}/opts`)).status, 200);
    });

    it('protobuf DeleteOptions bodies (client-go\'s default) are read as JSON ones are', async () => {
      // kube-controller-manager's replicaset controller deletes pods so; kapi parsed the body as JSON (400).
      const pb = (obj: Record<string, unknown>): Buffer => encodeProtobuf(obj);
      const delPB = (path: string, body: Buffer): Promise<RawResponse> =>
        s.request({ method: 'DELETE', path, body, contentType: 'application/vnd.kubernetes.protobuf' });
      const cm = await post(CMS, configMap('pb-opts', {}));
      const cases = [
        { name: 'v1, uid precondition not met', body: pb({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'other' } }),
          status: 409, reason: 'Conflict' },
        { name: 'apps/v1, dryRun', body: pb({ apiVersion: 'apps/v1', kind: 'DeleteOptions', dryRun: ['All'] }), status: 200 },
        { name: 'meta.k8s.io/v1, bad policy', body: pb({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Bogus' }),
          status: 422, reason: 'Invalid' },
        { name: 'not DeleteOptions', body: pb({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
          status: 400, reason: 'BadRequest', message: 'no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"' },
        { name: 'other options', body: pb({ apiVersion: 'meta.k8s.io/v1', kind: 'GetOptions' }),
          status: 400, reason: 'BadRequest', message: 'converting (v1.GetOptions) to (v1.DeleteOptions): unknown conversion' },
        { name: 'not protobuf', body: Buffer.from('{"kind":"DeleteOptions"}'), status: 400, reason: 'BadRequest' },
      ];
      for (const c of cases) {
        const r = await delPB(`${CMS}/pb-opts`, c.body);
        assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
        if (c.reason !== undefined) assert.equal(asStatus(r.json()).reason, c.reason, c.name);
        if (c.message !== undefined) assert.equal(asStatus(r.json()).message, c.message, c.name);
        assert.equal((await get(`${CMS}/pb-opts`)).status, 200, `${c.name}: still there`);
      }
      const ok = await delPB(`${CMS}/pb-opts`, pb({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: cm.metadata.uid } }));
      assert.equal(ok.status, 200, ok.text);
      assert.equal((await get(`${CMS}/pb-opts`)).status, 404);
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
      // A typed list, as kube's: its items carry no kind or apiVersion.
      assert.deepEqual(deleted.items.map((i) => [i.kind, i.apiVersion]), [[undefined, undefined], [undefined, undefined]]);
      const left = expectJSON<ObjList>(await get(`${CMS}?labelSelector=grp%20in%20(dc,keep)`), 200, 'left');
      assert.deepEqual(left.items.map((i) => i.metadata.name), ['dc3']);
    });
  });
});
