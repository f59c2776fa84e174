// What the differential corpus (differential-resources.test.ts) found kapi doing unlike
// kube-apiserver v1.36, checked against kapi alone so that it runs without the oracle: the
// Content-Type of transformed answers, deprecation warnings, the default garbage collection
// policy of v1 ReplicationControllers and batch/v1 Jobs (and the Job delete warning), field
// selectors of kinds without field label conversions, and DELETE answers that carry the object.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobuf } from '../apimachinery/runtime/serializer/protobuf/index.ts';
import type { RawResponse } from './testing/https-client.ts';
import { createNamespace, warnings } from './testing/objects.ts';
import { eventually, startSuite, type Suite } from './testing/suite.ts';

const NS = 'e2e-diff-findings';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const POD_SPEC = { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] };

const json = (v: unknown): string => JSON.stringify(v);
const obj = (r: RawResponse): Record<string, unknown> => r.json() as Record<string, unknown>;
const meta = (r: RawResponse): Record<string, unknown> => obj(r)['metadata'] as Record<string, unknown>;
/** The texts of the Warning headers (`299 - "<text>"`). */
const warned = (r: RawResponse): string[] => warnings(r).map((w) => JSON.parse(w.replace(/^299 - /, '')) as string);

describe('kapi answers as kube-apiserver where the differential corpus found it did not', () => {
  let s: Suite;
  before(async () => {
    s = await startSuite();
    await createNamespace(s, NS);
    const r = await s.request({ method: 'POST', path: CMS, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }) });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => { await s.close(); });

  it('a Table or PartialObjectMetadata answer has the serializer\'s bare media type as Content-Type', async () => {
    const cases = [
      { name: 'get Table', path: `${CMS}/cm`, accept: 'application/json;as=Table;g=meta.k8s.io;v=v1', want: 'application/json' },
      { name: 'list Table as YAML', path: CMS, accept: 'application/yaml;as=Table;g=meta.k8s.io;v=v1', want: 'application/yaml' },
      { name: 'get PartialObjectMetadata', path: `${CMS}/cm`, accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', want: 'application/json' },
      { name: 'list PartialObjectMetadataList', path: CMS, accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', want: 'application/json' },
      { name: 'get PartialObjectMetadata as protobuf', path: `${CMS}/cm`,
        accept: 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', want: 'application/vnd.kubernetes.protobuf' },
      { name: 'watch Table', path: `${CMS}?watch=1&resourceVersion=0&timeoutSeconds=1`, accept: 'application/json;as=Table;g=meta.k8s.io;v=v1', want: 'application/json' },
    ];
    for (const c of cases) {
      const r = await s.request({ method: 'GET', path: c.path, headers: { Accept: c.accept } });
      assert.equal(r.status, 200, `${c.name}: ${r.text}`);
      assert.equal(r.headers['content-type'], c.want, c.name);
    }
    // A watch's Table events after the first carry no column definitions: null, as Go's nil slice.
    const cm2 = await s.request({ method: 'POST', path: CMS, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm2' } }) });
    assert.equal(cm2.status, 201, cm2.text);
    const watched = await s.request({ method: 'GET', path: `${CMS}?watch=1&resourceVersion=0&timeoutSeconds=1`, headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    const events = watched.text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { object: { columnDefinitions: unknown } });
    assert.ok(events.length >= 2, watched.text);
    assert.ok(Array.isArray(events[0]?.object.columnDefinitions));
    assert.deepEqual(events.slice(1).map((e) => e.object.columnDefinitions), events.slice(1).map(() => null));
    // Still the transformed object.
    const pb = await s.request({ method: 'GET', path: `${CMS}/cm`, headers: { Accept: cases[4]?.accept ?? '' } });
    assert.equal(decodeProtobuf(pb.body).kind, 'PartialObjectMetadata');
  });

  it('every request to a deprecated kind carries kube\'s deprecation warning, errors too', async () => {
    const endpoints = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';
    const cases = [
      { name: 'create Endpoints', method: 'POST', path: `/api/v1/namespaces/${NS}/endpoints`,
        body: json({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ep' } }), status: 201, want: [endpoints] },
      { name: 'get missing Endpoints', method: 'GET', path: `/api/v1/namespaces/${NS}/endpoints/nope`, status: 404, want: [endpoints] },
      { name: 'list ComponentStatuses', method: 'GET', path: '/api/v1/componentstatuses', status: 200, want: ['v1 ComponentStatus is deprecated in v1.19+'] },
      { name: 'watch Endpoints', method: 'GET', path: `/api/v1/namespaces/${NS}/endpoints?watch=1&resourceVersion=0&timeoutSeconds=1`, status: 200, want: [endpoints] },
      { name: 'EndpointSlices are not deprecated', method: 'GET', path: `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, status: 200, want: [] },
    ];
    for (const c of cases) {
      const r = await s.request({ method: c.method, path: c.path, ...(c.body !== undefined ? { body: c.body } : {}) });
      assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
      assert.deepEqual(warned(r), c.want, c.name);
    }
  });

  it('v1 ReplicationControllers and batch/v1 Jobs orphan their dependents by default; a Job delete without a policy warns', async () => {
    const template = { metadata: { labels: { app: 'gc' } }, spec: POD_SPEC };
    const objects = [
      { name: 'job', path: `/apis/batch/v1/namespaces/${NS}/jobs`,
        body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'job' }, spec: { template: { spec: { ...POD_SPEC, restartPolicy: 'Never' } } } } },
      { name: 'rc', path: `/api/v1/namespaces/${NS}/replicationcontrollers`,
        body: { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { replicas: 0, template } } },
    ];
    const jobWarning = 'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them ' +
      'or set propagationPolicy=Orphan to suppress this warning';
    for (const o of objects) {
      const created = await s.request({ method: 'POST', path: o.path, body: json(o.body) });
      assert.equal(created.status, 201, created.text);
      const item = `${o.path}/${o.name}`;
      // A dry run shows the finalizer the default policy adds, and stores nothing.
      const dry = await s.request({ method: 'DELETE', path: `${item}?dryRun=All` });
      assert.equal(dry.status, 200, dry.text);
      assert.deepEqual(meta(dry)['finalizers'], ['orphan'], `${o.name}: ${dry.text}`);
      assert.deepEqual(warned(dry), o.name === 'job' ? [jobWarning] : [], o.name);
      const background = await s.request({ method: 'DELETE', path: `${item}?dryRun=All&propagationPolicy=Background` });
      assert.deepEqual(warned(background), [], `${o.name}: no warning with a policy`);
      const kept = await s.request({ method: 'GET', path: item });
      assert.equal(kept.status, 200);
      assert.equal(meta(kept)['finalizers'], undefined, `${o.name}: the dry run stored nothing`);
      // The real delete marks it; kapi's garbage collector orphans the dependents, drops the finalizer, and it goes.
      const del = await s.request({ method: 'DELETE', path: item });
      assert.equal(del.status, 200, del.text);
      assert.deepEqual(meta(del)['finalizers'], ['orphan'], `${o.name}: ${del.text}`);
      assert.equal(typeof meta(del)['deletionTimestamp'], 'string');
      await eventually(`${o.name} gone`, async () => ((await s.request({ method: 'GET', path: item })).status === 404 ? true : undefined));
    }
  });

  it('kinds without registered field label conversions take the default one; componentstatuses select by name', async () => {
    const known = '"spec.bogus" is not a known field selector: only "metadata.name", "metadata.namespace"';
    const cases = [
      { name: 'persistentvolumeclaims', path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`, field: 'spec.bogus=1', status: 400, message: known },
      { name: 'persistentvolumes', path: '/api/v1/persistentvolumes', field: 'spec.bogus=1', status: 400, message: known },
      { name: 'replicasets', path: `/apis/apps/v1/namespaces/${NS}/replicasets`, field: 'spec.bogus=1', status: 400, message: known },
      { name: 'componentstatuses', path: '/api/v1/componentstatuses', field: 'spec.bogus=1', status: 400, message: known },
      { name: 'jobs name the kind', path: `/apis/batch/v1/namespaces/${NS}/jobs`, field: 'spec.bogus=1', status: 400, message: 'field label "spec.bogus" not supported for Job' },
      { name: 'resourceslices name the group version kind', path: '/apis/resource.k8s.io/v1/resourceslices', field: 'spec.bogus=1', status: 400,
        message: 'field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: spec.bogus' },
      { name: 'cronjobs take the default', path: `/apis/batch/v1/namespaces/${NS}/cronjobs`, field: 'spec.bogus=1', status: 400, message: known },
    ];
    for (const c of cases) {
      const r = await s.request({ method: 'GET', path: `${c.path}?fieldSelector=${encodeURIComponent(c.field)}` });
      assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
      assert.equal(obj(r)['message'], c.message, c.name);
    }
    const names = async (field: string): Promise<unknown[]> => {
      const r = await s.request({ method: 'GET', path: `/api/v1/componentstatuses?fieldSelector=${encodeURIComponent(field)}` });
      assert.equal(r.status, 200, r.text);
      return (obj(r)['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    };
    assert.deepEqual(await names('metadata.name=etcd-0'), ['etcd-0']);
    assert.deepEqual(await names('metadata.name=nope'), []);
  });

  it('a list of custom resources carries metadata.continue "" on its last page, as kube\'s unstructured lists', async () => {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gizmos.findings.example.com' },
      spec: { group: 'findings.example.com', scope: 'Namespaced', names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
    const created = await s.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: json(crd) });
    assert.equal(created.status, 201, created.text);
    const gizmos = `/apis/findings.example.com/v1/namespaces/${NS}/gizmos`;
    await eventually('gizmos served', async () => ((await s.request({ method: 'GET', path: gizmos })).status === 200 ? true : undefined));
    for (const name of ['g1', 'g2']) {
      const r = await s.request({ method: 'POST', path: gizmos, body: json({ apiVersion: 'findings.example.com/v1', kind: 'Gizmo', metadata: { name } }) });
      assert.equal(r.status, 201, r.text);
    }
    const page = async (query: string): Promise<Record<string, unknown>> => {
      const r = await s.request({ method: 'GET', path: `${gizmos}${query}` });
      assert.equal(r.status, 200, r.text);
      return meta(r);
    };
    assert.equal((await page(''))['continue'], '');
    const first = await page('?limit=1');
    assert.ok(typeof first['continue'] === 'string' && first['continue'] !== '', JSON.stringify(first));
    assert.equal((await page(`?limit=1&continue=${encodeURIComponent(String(first['continue']))}`))['continue'], '');
    // Typed lists leave it out.
    assert.equal(meta(await s.request({ method: 'GET', path: CMS }))['continue'], undefined);
    const dc = await s.request({ method: 'DELETE', path: `${gizmos}?dryRun=All` });
    assert.equal(meta(dc)['continue'], '');
    // A custom resource has no protobuf form: a watch asking only for it fails the object
    // negotiation first, as kube's ListResource, so the 406 lists the object media types.
    const w = await s.request({ method: 'GET', path: `${gizmos}?watch=1&timeoutSeconds=1`, headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(w.status, 406, w.text);
    // The Status comes as protobuf, as the Accept header asked: its message is a plain string field.
    assert.ok(w.text.includes('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf'), w.text);
  });

  it('objects read back carry the Go zero values kube\'s encoder writes (empty structs, fields without omitempty)', async () => {
    const cases = [
      { path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`, body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' } },
        at: ['spec'], want: {} },
      { path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`, body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb' } },
        at: ['spec'], want: {} },
      { path: `/api/v1/namespaces/${NS}/resourcequotas`, body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'rq' } }, at: ['spec'], want: {} },
      { path: `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`,
        body: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' }, spec: {} }, at: ['spec', 'podSelector'], want: {} },
      { path: `/api/v1/namespaces/${NS}/podtemplates`,
        body: { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt' }, template: { spec: POD_SPEC } }, at: ['template', 'metadata'], want: {} },
      { path: '/apis/scheduling.k8s.io/v1/priorityclasses', body: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'pc' } },
        at: ['value'], want: 0 },
      { path: '/apis/storage.k8s.io/v1/volumeattachments', body: { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va0' },
        spec: { attacher: 'a.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } } }, at: ['status'], want: { attached: false } },
    ];
    for (const c of cases) {
      const created = await s.request({ method: 'POST', path: c.path, body: json(c.body) });
      assert.equal(created.status, 201, created.text);
      const got = await s.request({ method: 'GET', path: `${c.path}/${c.body.metadata.name}` });
      let v: unknown = obj(got);
      for (const k of c.at) v = (v as Record<string, unknown>)[k];
      assert.deepEqual(v, c.want, `${c.body.kind} ${c.at.join('.')}: ${got.text}`);
    }
    // An update that leaves the empty struct out changes nothing: the generation stays.
    const np = `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies/np`;
    const cur = await s.request({ method: 'GET', path: np });
    const put = await s.request({ method: 'PUT', path: np, body: json({ ...obj(cur), spec: {}, metadata: { ...meta(cur), labels: { a: 'b' } } }) });
    assert.equal(put.status, 200, put.text);
    assert.equal(meta(put)['generation'], 1, put.text);
  });

  it('a body of a kind the group does not register names kube\'s scheme as v1.36 does', async () => {
    const cases = [
      { name: 'unknown group version', path: `/api/v1/namespaces/${NS}/pods`, body: { apiVersion: 'diff.example.com/v9', kind: 'Pod', metadata: { name: 'p' } },
        message: 'Pod in version "v9" cannot be handled as a Pod: no kind "Pod" is registered for version "diff.example.com/v9" in scheme "pkg/runtime/scheme.go:111"' },
      { name: 'kind of another group', path: `/apis/apps/v1/namespaces/${NS}/deployments`, body: { apiVersion: 'apps/v1', kind: 'Secret', metadata: { name: 's' } },
        message: 'Secret in version "v1" cannot be handled as a Deployment: no kind "Secret" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:111"' },
    ];
    for (const c of cases) {
      const r = await s.request({ method: 'POST', path: c.path, body: json(c.body) });
      assert.equal(r.status, 400, `${c.name}: ${r.text}`);
      assert.equal(obj(r)['message'], c.message, c.name);
    }
  });

  it('DELETE answers with the object where kube\'s storage returns it, else with a Success Status', async () => {
    const cases = [
      { path: '/apis/storage.k8s.io/v1/storageclasses', body: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'p.example.com' } },
      { path: '/apis/storage.k8s.io/v1/volumeattachments', body: { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va' },
        spec: { attacher: 'a.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } } } },
      { path: `/api/v1/namespaces/${NS}/limitranges`, body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [] } }, want: 'Status' },
      { path: '/apis/storage.k8s.io/v1/csinodes', body: { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'n1' }, spec: { drivers: [] } } },
      { path: '/apis/storage.k8s.io/v1/csidrivers', body: { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'd.example.com' }, spec: {} } },
      { path: '/apis/resource.k8s.io/v1/deviceclasses', body: { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'dc' }, spec: {} } },
      // kubernetes.io/vac-protection holds it until the protection controller sees no user of it.
      { path: '/apis/storage.k8s.io/v1/volumeattributesclasses', finalized: true,
        body: { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name: 'vac' }, driverName: 'd.example.com', parameters: { a: 'b' } } },
    ];
    for (const c of cases) {
      const created = await s.request({ method: 'POST', path: c.path, body: json(c.body) });
      assert.equal(created.status, 201, created.text);
      const del = await s.request({ method: 'DELETE', path: `${c.path}/${c.body.metadata.name}` });
      assert.equal(del.status, 200, del.text);
      assert.equal(obj(del)['kind'], c.want ?? c.body.kind, del.text);
      const get = async (): Promise<number> => (await s.request({ method: 'GET', path: `${c.path}/${c.body.metadata.name}` })).status;
      if (c.finalized === true) await eventually(`${c.body.kind} finalized`, async () => ((await get()) === 404 ? true : undefined));
      else assert.equal(await get(), 404);
    }
  });
});
