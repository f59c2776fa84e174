// Every resource the server serves with `--runtime-config api/all=true` (GA, beta and alpha group
// versions, read from aggregated discovery) that supports create goes through the same life cycle.
// The object is built from the schemas: the example generated from the kind's schema in the
// OpenAPI v3 document the server publishes for the preferred group version (every required
// property, testing/fixtures/schema-example.ts), with the resource's hint from
// testing/fixtures/every-resource.ts laid over it (only what kube's validation needs beyond the
// schema; most resources have none), and is created with fieldValidation=Strict, so a field the
// schema does not know fails the create. The life cycle: create in the most preferred version
// (201), GET in every served version (same uid, that version's apiVersion and kind), a lossless
// round trip through every other version (read and written back there), LIST (`<Kind>List`
// holding it), WATCH from the list's resourceVersion (sees the update as MODIFIED), UPDATE, merge
// PATCH, writes dropping every field but metadata (applied or refused, never a 5xx), DELETE (200)
// and GET (404).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startSuite, type Suite } from './testing/suite.ts';
import { openWatch } from './testing/watch-stream.ts';
import { at, expectJSON, type Obj, type ObjList } from './testing/objects.ts';
import { apiVersion, discover, gvPath, type Case } from './testing/discover.ts';
import { FINALIZED_ON_DELETE, HINTS, generateMaterial, type FixtureMaterial, type Hint, type JSONObject } from './testing/fixtures/every-resource.ts';
import { exampleFor, type OpenAPIDocument } from './testing/fixtures/schema-example.ts';

/** Resources with no storage: create answers 201 with the computed object, and nothing else is served. */
const CREATE_ONLY: ReadonlySet<string> = new Set([
  'bindings',
  'tokenreviews.authentication.k8s.io', 'selfsubjectreviews.authentication.k8s.io',
  'subjectaccessreviews.authorization.k8s.io', 'localsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io', 'selfsubjectrulesreviews.authorization.k8s.io',
]);

/** Create-only resources whose create answers another kind: kube's BindingREST returns a Success Status. */
const CREATE_RESPONSE: Readonly<Record<string, { apiVersion: string; kind: string }>> = { bindings: { apiVersion: 'v1', kind: 'Status' } };


/** managedFields hold an Update entry by `manager` (in `apiVersion`) that owns metadata.labels[label]. */
function assertRecorded(key: string, obj: Obj, manager: string, subresource: string, apiVersion: string, label: string): void {
  const e = obj.metadata.managedFields?.find((m) => m.manager === manager);
  assert.ok(e !== undefined, `${key}: no managedFields entry for ${manager}: ${JSON.stringify(obj.metadata.managedFields)}`);
  assert.equal(e.operation, 'Update', `${key}: ${manager}`);
  assert.equal(e.apiVersion, apiVersion, `${key}: ${manager}`);
  assert.equal(e.subresource ?? '', subresource, `${key}: ${manager}`);
  assert.ok(at(e.fieldsV1, 'f:metadata', 'f:labels', `f:${label}`) !== undefined, `${key}: ${manager} does not own labels.${label}: ${JSON.stringify(e.fieldsV1)}`);
}

/**
 * Status strategies that reset metadata without naming it in their reset fields: kube stores no
 * metadata change through /status there, yet records it in managedFields.
 */
const STATUS_RECORDS_RESET_METADATA: ReadonlySet<string> = new Set(['podcertificaterequests.certificates.k8s.io']);

interface LabeledEvent { type: string; object: { metadata?: { name?: string; labels?: Record<string, string> } } }

interface OpenAPIIndex { paths: Record<string, { serverRelativeURL: string }> }

/** The OpenAPI v3 documents the server publishes, fetched once per group version. */
class OpenAPIDocuments {
  private index: Promise<OpenAPIIndex> | undefined;
  private readonly docs = new Map<string, Promise<OpenAPIDocument>>();
  constructor(private readonly suite: Suite) {}

  get(group: string, version: string): Promise<OpenAPIDocument> {
    const key = gvPath(group, version).slice(1);
    let doc = this.docs.get(key);
    if (doc === undefined) {
      doc = this.fetch(key);
      this.docs.set(key, doc);
    }
    return doc;
  }

  private async fetch(key: string): Promise<OpenAPIDocument> {
    this.index ??= this.suite.request({ method: 'GET', path: '/openapi/v3' }).then((r) => expectJSON<OpenAPIIndex>(r, 200, 'GET /openapi/v3'));
    const entry = (await this.index).paths[key];
    assert.ok(entry !== undefined, `GET /openapi/v3 does not list ${key}`);
    return expectJSON<OpenAPIDocument>(await this.suite.request({ method: 'GET', path: entry.serverRelativeURL }), 200, `GET ${entry.serverRelativeURL}`);
  }
}

async function lifeCycle(suite: Suite, openapi: OpenAPIDocuments, material: FixtureMaterial, c: Case, index: number): Promise<void> {
  const hint: Hint = HINTS[c.key] ?? {};
  const createOnly = CREATE_ONLY.has(c.key);
  assert.equal(c.verbs.includes('get'), !createOnly,
    `${c.key}: verbs ${c.verbs.join(',')}, ${createOnly ? 'listed' : 'not listed'} in CREATE_ONLY`);
  const [preferred] = c.versions;
  assert.ok(preferred !== undefined);

  const namespace = c.namespaced ? `er-${index}-${c.resource}`.slice(0, 63).replace(/-+$/, '') : '';
  if (c.namespaced) {
    expectJSON<Obj>(await suite.request({
      method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }),
    }), 201, `create namespace ${namespace}`);
  }
  const name = hint.name ?? `er-${c.resource}`;
  const ctx = { name, namespace, material };
  for (const pre of hint.prerequisites?.(ctx) ?? []) {
    expectJSON<Obj>(await suite.request({ method: 'POST', path: pre.path, body: JSON.stringify(pre.body) }), 201, `prerequisite POST ${pre.path}`);
  }
  const collection = (version: string): string => `${gvPath(c.group, version)}${c.namespaced ? `/namespaces/${namespace}` : ''}/${c.resource}`;
  const item = (version: string): string => `${collection(version)}/${encodeURIComponent(name)}`;
  const example = exampleFor(await openapi.get(c.group, preferred.version), { group: c.group, version: preferred.version, kind: preferred.kind },
    hint.body?.(ctx) ?? {});
  const body: JSONObject = {
    apiVersion: apiVersion(c.group, preferred.version), kind: preferred.kind,
    // Reviews must have empty metadata (but for a local review's namespace); a binding is named after its pod.
    metadata: createOnly
      ? { ...(hint.name === undefined ? {} : { name }), ...(c.namespaced ? { namespace } : {}) }
      : { name, ...(c.namespaced ? { namespace } : {}), labels: { e2e: 'every-resource' } },
    ...example,
  };

  // CREATE, strictly: a field the schema does not know is an error
  const created = expectJSON<Obj>(await suite.request({
    method: 'POST', path: `${collection(preferred.version)}?fieldValidation=Strict&fieldManager=er-create`, body: JSON.stringify(body),
  }), 201, `POST ${collection(preferred.version)} ${JSON.stringify(body)}`);
  const want = CREATE_RESPONSE[c.key] ?? { apiVersion: apiVersion(c.group, preferred.version), kind: preferred.kind };
  assert.equal(created.kind, want.kind, `POST ${collection(preferred.version)}: kind`);
  assert.equal(created.apiVersion, want.apiVersion, `POST ${collection(preferred.version)}: apiVersion`);
  if (createOnly) return;
  const uid = created.metadata.uid;
  assert.ok(uid !== undefined && uid !== '', `${c.key}: created without a uid`);
  const gv = apiVersion(c.group, preferred.version);
  assertRecorded(c.key, created, 'er-create', '', gv, 'e2e');

  // GET in every served version
  for (const v of c.versions) {
    const got = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(v.version) }), 200, `GET ${item(v.version)}`);
    assert.equal(got.apiVersion, apiVersion(c.group, v.version), `GET ${item(v.version)}: apiVersion`);
    assert.equal(got.kind, v.kind, `GET ${item(v.version)}: kind`);
    assert.equal(got.metadata.uid, uid, `GET ${item(v.version)}: uid`);
  }

  // Round trip through every other version: read there, write back there, read in the preferred
  // version: nothing may be lost (A → hub → B → hub → A).
  const comparable = (o: Obj): Obj => {
    const { resourceVersion: _rv, managedFields: _mf, ...metadata } = o.metadata;
    return { ...o, metadata };
  };
  const before = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(preferred.version) }), 200, `GET ${item(preferred.version)}`);
  for (const v of c.versions.slice(1)) {
    const there = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(v.version) }), 200, `GET ${item(v.version)}`);
    expectJSON<Obj>(await suite.request({ method: 'PUT', path: item(v.version), body: JSON.stringify(there) }), 200, `PUT ${item(v.version)}`);
    const back: Obj = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(preferred.version) }), 200, `GET ${item(preferred.version)}`);
    assert.deepEqual(comparable(back), comparable(before), `${c.key}: ${preferred.version} → ${v.version} → ${preferred.version} is not lossless`);
  }

  // LIST
  const list = expectJSON<ObjList & { apiVersion?: string }>(await suite.request({ method: 'GET', path: collection(preferred.version) }), 200,
    `LIST ${collection(preferred.version)}`);
  assert.equal(list.kind, `${preferred.kind}List`);
  assert.equal(list.apiVersion, apiVersion(c.group, preferred.version));
  assert.ok(list.items.some((o) => o.metadata.uid === uid), `LIST ${collection(preferred.version)}: ${name} missing`);
  const listRV = list.metadata.resourceVersion;
  assert.ok(listRV !== undefined && listRV !== '', 'LIST without a resourceVersion');

  // WATCH from the list, then UPDATE (retrying conflicts with controllers that write the object too)
  const watch = await openWatch(suite.creds,
    `${collection(preferred.version)}?watch=1&resourceVersion=${listRV}&fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`);
  try {
    assert.equal(watch.status, 200);
    const updated = await eventually(`PUT ${item(preferred.version)} without a conflict`, async () => {
      const cur = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(preferred.version) }), 200, `GET ${item(preferred.version)}`);
      cur.metadata.labels = { ...cur.metadata.labels, updated: 'yes' };
      const res = await suite.request({ method: 'PUT', path: `${item(preferred.version)}?fieldManager=er-update`, body: JSON.stringify(cur) });
      return res.status === 409 ? undefined : expectJSON<Obj>(res, 200, `PUT ${item(preferred.version)} (resourceVersion ${cur.metadata.resourceVersion})`);
    });
    assert.equal(updated.metadata.labels?.['updated'], 'yes');
    assert.equal(updated.metadata.uid, uid);
    assertRecorded(c.key, updated, 'er-update', '', gv, 'updated');
    const isUpdate = (e: LabeledEvent): boolean =>
      e.type === 'MODIFIED' && e.object.metadata?.name === name && e.object.metadata.labels?.['updated'] === 'yes';
    const events = await watch.waitFor((evs) => evs.some((e) => isUpdate(e as LabeledEvent)), `MODIFIED ${name} with label updated=yes`);
    const event = events.find((e) => isUpdate(e as LabeledEvent));
    assert.equal(event?.object.kind, preferred.kind, 'kind of the watch event\'s object');
  } finally {
    watch.stop();
  }

  // PATCH
  const patched = expectJSON<Obj>(await suite.request({
    method: 'PATCH', path: `${item(preferred.version)}?fieldManager=er-patch`, contentType: 'application/merge-patch+json',
    body: JSON.stringify({ metadata: { labels: { patched: 'yes' } } }),
  }), 200, `PATCH ${item(preferred.version)}`);
  assert.equal(patched.metadata.labels?.['patched'], 'yes');
  assert.equal(patched.metadata.labels?.['updated'], 'yes');
  assertRecorded(c.key, patched, 'er-patch', '', gv, 'patched');

  // Subresources that update part of the object: managedFields record what was stored, no more.
  for (const sr of c.subresources) {
    if (!sr.verbs.includes('patch')) continue;
    const srPath: string = `${item(preferred.version)}/${sr.subresource}?fieldManager=er-${sr.subresource}`;
    if (sr.subresource === 'scale') {
      const res = await suite.request({ method: 'PATCH', path: srPath, contentType: 'application/merge-patch+json', body: JSON.stringify({ spec: { replicas: 2 } }) });
      assert.equal(res.status, 200, `PATCH ${srPath}: ${res.text}`);
      const scaled: Obj = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(preferred.version) }), 200, `GET ${item(preferred.version)}`);
      const entry = scaled.metadata.managedFields?.find((m) => m.manager === 'er-scale');
      assert.equal(entry?.subresource, 'scale', `${c.key}/scale: ${JSON.stringify(scaled.metadata.managedFields)}`);
      continue;
    }
    if (sr.subresource !== 'status') continue;
    const res = await suite.request({ method: 'PATCH', path: srPath, contentType: 'application/merge-patch+json',
      body: JSON.stringify({ metadata: { annotations: { 'er-status': 'yes' } } }) });
    if (res.status !== 200) {
      assert.ok([409, 422].includes(res.status), `PATCH ${srPath}: ${res.status} ${res.text}`);
      continue;
    }
    const written = JSON.parse(res.text) as Obj;
    const stored = written.metadata.annotations?.['er-status'] === 'yes';
    const e = written.metadata.managedFields?.find((m) => m.manager === 'er-status');
    const recorded = at(e?.fieldsV1, 'f:metadata', 'f:annotations', 'f:er-status') !== undefined;
    if (!STATUS_RECORDS_RESET_METADATA.has(c.key)) assert.equal(recorded, stored, `${c.key}/status: the annotation is ${stored ? '' : 'not '}stored but ${recorded ? '' : 'not '}recorded: ${JSON.stringify(e)}`);
    if (e !== undefined) assert.equal(e.subresource, 'status');
  }

  // Writes that drop everything but metadata (a PUT, a merge patch nulling each other field, in
  // every served version, so each conversion and strategy meets the gaps) are applied or refused,
  // never a server error.
  for (const v of c.versions) {
    const cur = expectJSON<Obj>(await suite.request({ method: 'GET', path: item(v.version) }), 200, `GET ${item(v.version)}`);
    const others = Object.keys(cur).filter((k) => !['apiVersion', 'kind', 'metadata'].includes(k));
    const writes = [
      { method: 'PUT', contentType: 'application/json', body: { apiVersion: cur.apiVersion, kind: cur.kind, metadata: cur.metadata } },
      { method: 'PATCH', contentType: 'application/merge-patch+json', body: Object.fromEntries(others.map((k) => [k, null])) },
    ];
    for (const w of writes) {
      const res = await suite.request({ method: w.method, path: item(v.version), contentType: w.contentType, body: JSON.stringify(w.body) });
      assert.ok([200, 409, 422].includes(res.status), `${w.method} ${item(v.version)} without ${others.join(', ')}: ${res.status} ${res.text}`);
    }
  }

  // DELETE, then GET 404
  expectJSON<unknown>(await suite.request({ method: 'DELETE', path: `${item(preferred.version)}?gracePeriodSeconds=0` }), 200,
    `DELETE ${item(preferred.version)}`);
  if (FINALIZED_ON_DELETE.has(c.key)) {
    await eventually(`GET ${item(preferred.version)} answering 404 once finalized`, async () => {
      const r = await suite.request({ method: 'GET', path: item(preferred.version) });
      return r.status === 404 ? true : undefined;
    });
  } else {
    const gone = await suite.request({ method: 'GET', path: item(preferred.version) });
    assert.equal(gone.status, 404, `GET ${item(preferred.version)} after DELETE: ${gone.text}`);
  }
}

const suite = await startSuite({ flags: ['--runtime-config', 'api/all=true'] });
const openapi = new OpenAPIDocuments(suite);
let cases: Case[];
let material: FixtureMaterial;
try {
  [cases, material] = await Promise.all([discover(suite), generateMaterial()]);
} catch (err) {
  await suite.close();
  throw err;
}

describe('every served creatable resource (api/all=true) goes through create, get, list, watch, update, patch, delete', { concurrency: 8 }, () => {
  after(async () => { await suite.close(); });

  it('discovery serves creatable resources in beta and alpha versions too', () => {
    assert.ok(cases.length > 60, `only ${cases.length} creatable resources`);
    assert.ok(cases.some((c) => c.versions.some((v) => v.version.includes('alpha'))));
  });

  it('every hint, CREATE_ONLY, CREATE_RESPONSE and FINALIZED_ON_DELETE entry names a served creatable resource', () => {
    const served = new Set(cases.map((c) => c.key));
    const stale = [...Object.keys(HINTS), ...CREATE_ONLY, ...FINALIZED_ON_DELETE, ...Object.keys(CREATE_RESPONSE), ...STATUS_RECORDS_RESET_METADATA]
      .filter((k) => !served.has(k));
    assert.deepEqual(stale, []);
  });

  cases.forEach((c, index) => {
    it(`${c.key} (${c.versions.map((v) => v.version).join(', ')})`, () => lifeCycle(suite, openapi, material, c, index));
  });

  it('a bare object, and the schema\'s required fields alone, are created or refused with 400/422, never a server error (but where kube gives one)', async () => {
    const namespace = 'er-bare';
    expectJSON<Obj>(await suite.request({
      method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }),
    }), 201, `create namespace ${namespace}`);
    const answers: string[] = [];
    const serverErrors: string[] = [];
    for (const c of cases) {
      const [preferred] = c.versions;
      assert.ok(preferred !== undefined);
      const collection = `${gvPath(c.group, preferred.version)}${c.namespaced ? `/namespaces/${namespace}` : ''}/${c.resource}`;
      const example = exampleFor(await openapi.get(c.group, preferred.version), { group: c.group, version: preferred.version, kind: preferred.kind });
      for (const [shape, fields] of [['bare', {}], ['schema', example]] as const) {
        const name = `er-${shape}-${c.resource}`;
        const metadata = CREATE_ONLY.has(c.key) ? (c.namespaced ? { namespace } : {}) : { name, ...(c.namespaced ? { namespace } : {}) };
        const res = await suite.request({
          method: 'POST', path: collection,
          body: JSON.stringify({ apiVersion: apiVersion(c.group, preferred.version), kind: preferred.kind, metadata, ...fields }),
        });
        answers.push(`${c.key} (${shape}): ${res.status}`);
        if (c.key === 'bindings') {
          // kube's BindingREST returns ValidatePodBinding's errors as a plain aggregate, which becomes a 500.
          assert.equal(res.status, 500, res.text);
          assert.match(res.text, /"message":"target\.name: Required value"/);
          continue;
        }
        if (![201, 400, 404, 422].includes(res.status)) {
          serverErrors.push(`POST ${collection} (${shape}): ${res.status} ${res.text}`);
          continue;
        }
        if (res.status !== 201) {
          const status = JSON.parse(res.text) as { kind?: string; code?: number; reason?: string };
          assert.equal(status.kind, 'Status', `POST ${collection}: ${res.text}`);
          assert.equal(status.code, res.status);
          assert.equal(status.reason, { 400: 'BadRequest', 404: 'NotFound', 422: 'Invalid' }[res.status], `POST ${collection}: ${res.text}`);
        } else if (!CREATE_ONLY.has(c.key)) {
          const del = await suite.request({ method: 'DELETE', path: `${collection}/${name}?gracePeriodSeconds=0` });
          assert.ok(del.status === 200 || del.status === 202, `DELETE ${collection}/${name}: ${del.status} ${del.text}`);
        }
      }
    }
    assert.deepEqual(serverErrors, []);
    // Both answers occur: kinds without required fields are created, the rest refused.
    assert.ok(answers.some((a) => a.endsWith(': 201')) && answers.some((a) => a.endsWith(': 422')), answers.join('\n'));
  });
});
