// The full verb × option matrix of the differential corpus, for a few representative resources
// (a core namespaced kind, a workload with status and scale, a cluster-scoped kind, a custom
// resource): YAML and protobuf request bodies, every Accept type, every list, watch, update, patch
// and delete option with good and bad values. The core cases (diff-corpus.ts) cover the rest.
// No Go counterpart: the e2e test harness.
import { encodeProtobuf } from '../../apimachinery/runtime/serializer/protobuf/index.ts';
import { stringify as toYAML } from 'yaml';
import type { DiffCase } from './differential.ts';
import {
  APPLY, bodyOf, caseOf, JSON_PATCH, labelOf, MERGE, objectOf, PARTIAL, PARTIAL_LIST, PROTOBUF, remember, selectorOf, STRATEGIC, TABLE,
} from './diff-corpus.ts';
import type { Target } from './diff-resources.ts';

export const MATRIX_RESOURCES: readonly string[] = ['pods', 'deployments.apps', 'clusterroles.rbac.authorization.k8s.io', 'widgets.diffres.example.com'];

const YAML = 'application/yaml';
const enc = encodeURIComponent;

/** Protobuf bytes of the object, or (custom resources have no message) the JSON bytes, which the server must refuse as protobuf. */
function protobufOf(o: Record<string, unknown>): Buffer {
  try {
    return encodeProtobuf(o);
  } catch {
    return Buffer.from(JSON.stringify(o));
  }
}

function createCases(t: Target): DiffCase[] {
  const c = t.collection;
  const post = (name: string, path: string, body: string | Buffer, contentType = 'application/json', headers: Record<string, string> = {}): DiffCase =>
    caseOf(t, 'create', name, { method: 'POST', path, body, contentType, headers });
  const dry = `${c}?dryRun=All`;
  const dryBody = bodyOf(t, { name: `${t.name}-dry` });
  const second = objectOf(t, { name: `${t.name}-2` });
  return [
    { ...post('YAML body', c, toYAML(objectOf(t)), YAML), remember: remember('rv', 'metadata', 'resourceVersion') },
    { ...post('protobuf body', c, protobufOf(second), PROTOBUF), remember: remember('uid2', 'metadata', 'uid') },
    post('second, JSON body', c, JSON.stringify(second)),
    post('Accept YAML', dry, dryBody, 'application/json', { Accept: YAML }),
    post('Accept protobuf', dry, dryBody, 'application/json', { Accept: PROTOBUF }),
    post('Accept Table', dry, dryBody, 'application/json', { Accept: TABLE }),
    post('Accept PartialObjectMetadata', dry, dryBody, 'application/json', { Accept: PARTIAL }),
    post('fieldManager too long', `${c}?fieldManager=${'m'.repeat(129)}`, dryBody),
    post('fieldValidation=Bogus', `${c}?fieldValidation=Bogus`, dryBody),
    post('dryRun=Bogus', `${c}?dryRun=Bogus`, dryBody),
    post('bad JSON', c, '{"apiVersion": "v1", "kind": '),
    post('bad YAML', c, 'a: [', YAML),
    post('bad protobuf', c, Buffer.from('k8s\u0000garbage'), PROTOBUF),
    post('unsupported media type', c, dryBody, 'text/plain'),
    post('wrong kind', dry, JSON.stringify({ ...objectOf(t), kind: 'Secret' })),
    post('wrong apiVersion', dry, JSON.stringify({ ...objectOf(t), apiVersion: 'diff.example.com/v9' })),
    post('no name', dry, bodyOf(t, { name: undefined })),
    post('generateName', dry, bodyOf(t, { name: undefined, generateName: `${t.name}-` })),
    post('invalid name', dry, bodyOf(t, { name: 'Bad_Name' })),
    ...(t.namespaced ? [post('other namespace', dry, bodyOf(t, { namespace: 'elsewhere' }))] : []),
  ];
}

function readCases(t: Target): DiffCase[] {
  const item = `${t.collection}/${t.name}`;
  const sel = `${t.collection}?${selectorOf(t)}`;
  const get = (name: string, path: string, accept = 'application/json'): DiffCase => caseOf(t, 'get', name, { method: 'GET', path, headers: { Accept: accept } });
  const list = (name: string, query: string, accept = 'application/json', rememberIt?: DiffCase['remember']): DiffCase =>
    caseOf(t, 'list', name, { method: 'GET', path: `${sel}${query}`, headers: { Accept: accept }, ...(rememberIt ? { remember: rememberIt } : {}) });
  const watch = (name: string, query: string, accept = 'application/json'): DiffCase =>
    // From the watch cache (resourceVersion=0) unless the case says otherwise: the oracle's etcd
    // has no RequestWatchProgress, so kube cannot serve a consistent watch from its cache.
    caseOf(t, 'watch', name, {
      method: 'GET', path: `${sel}&watch=1&timeoutSeconds=2${query.includes('resourceVersion=') ? '' : '&resourceVersion=0'}${query}`, headers: { Accept: accept },
    });
  return [
    get('resourceVersion=0', `${item}?resourceVersion=0`),
    get('bad resourceVersion', `${item}?resourceVersion=abc`),
    get('not acceptable', item, 'text/html'),
    get('Accept with q', item, 'application/json;q=0.5, application/yaml'),
    get('Table includeObject=Object', `${item}?includeObject=Object`, TABLE),
    get('Table includeObject=Bogus', `${item}?includeObject=Bogus`, TABLE),
    get('Table as protobuf', item, 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1'),
    get('PartialObjectMetadata as protobuf', item, `${PROTOBUF};as=PartialObjectMetadata;g=meta.k8s.io;v=v1`),
    get('PartialObjectMetadata v1beta1', item, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1'),
    list('limit=1', '&limit=1', 'application/json', (v) => ({ ...remember('cont', 'metadata', 'continue')(v), ...remember('listRV', 'metadata', 'resourceVersion')(v) })),
    list('continue', '&limit=1&continue={cont}'),
    list('bad continue', '&limit=1&continue=garbage'),
    list('continue with resourceVersion', '&limit=1&continue={cont}&resourceVersion=0'),
    list('bad labelSelector', `&labelSelector=${enc('a in (')}`),
    list('fieldSelector metadata.name!=', `&fieldSelector=${enc(`metadata.name!=${t.name}`)}`),
    list('bad fieldSelector operator', `&fieldSelector=${enc('metadata.name<x')}`),
    list('negative limit', '&limit=-1'),
    list('bad limit', '&limit=abc'),
    list('Exact at the list', '&resourceVersion={listRV}&resourceVersionMatch=Exact'),
    list('Exact without resourceVersion', '&resourceVersionMatch=Exact'),
    list('NotOlderThan without resourceVersion', '&resourceVersionMatch=NotOlderThan'),
    list('bad resourceVersion', '&resourceVersion=abc'),
    list('resourceVersion in the future', '&resourceVersion=99999999999'),
    list('bad timeoutSeconds', '&timeoutSeconds=abc'),
    list('YAML', '', YAML),
    list('Table includeObject=Metadata', '&includeObject=Metadata', TABLE),
    list('PartialObjectMetadataList as protobuf', '', `${PROTOBUF};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`),
    list('PartialObjectMetadata for a list', '', PARTIAL),
    list('PartialObjectMetadataList', '&limit=1', PARTIAL_LIST),
    watch('protobuf', '', PROTOBUF),
    watch('initial events and bookmarks', '&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion='),
    watch('sendInitialEvents without resourceVersionMatch', '&sendInitialEvents=true'),
    watch('resourceVersion=0', '&resourceVersion=0'),
    watch('Exact', '&resourceVersion=0&resourceVersionMatch=Exact'),
    watch('bad resourceVersion', '&resourceVersion=abc'),
    watch('Table', '', TABLE),
    watch('PartialObjectMetadata', '', PARTIAL),
  ];
}

function writeCases(t: Target): DiffCase[] {
  const item = `${t.collection}/${t.name}`;
  const meta = (labels: Record<string, string>, rv?: string): Record<string, unknown> =>
    ({ labels: { ...labelOf(t), ...labels }, ...(rv !== undefined ? { resourceVersion: rv } : {}) });
  const put = (name: string, body: string | Buffer, query = '', contentType = 'application/json', rememberIt = false): DiffCase =>
    caseOf(t, 'update', name, { method: 'PUT', path: `${item}${query}`, body, contentType, ...(rememberIt ? { remember: remember('rv', 'metadata', 'resourceVersion') } : {}) });
  const patch = (verb: string, name: string, contentType: string, body: string, query = '', headers: Record<string, string> = {}): DiffCase =>
    caseOf(t, verb, name, { method: 'PATCH', path: `${item}${query}`, contentType, body, headers });
  const apply = (labels: Record<string, string>): string => JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name: t.name, labels } });
  const unknown = JSON.stringify({ ...objectOf(t, meta({ u: '1' }, '{rv}')), diffUnknown: 1 });
  const cases: DiffCase[] = [
    // Writes that may fail on one server only are dry runs, so that later cases see the same object.
    put('YAML body', toYAML(objectOf(t, meta({ yaml: 'v' }, '{rv}'))), '', YAML, true),
    // YAML 1.1, as kube reads it: an unquoted yes is a boolean, so the label value has the wrong type.
    put('YAML 1.1 boolean', toYAML(objectOf(t, meta({}, '{rv}'))).replace('labels:\n', 'labels:\n    yes11: yes\n'), '?dryRun=All', YAML),
    put('protobuf body, no resourceVersion', protobufOf(objectOf(t, meta({ pb: 'yes' }))), '?dryRun=All', PROTOBUF),
    put('no resourceVersion', bodyOf(t, meta({ norv: 'yes' })), '?dryRun=All'),
    put('dryRun=All', bodyOf(t, meta({ dry: 'yes' }, '{rv}')), '?dryRun=All'),
    put('fieldManager', bodyOf(t, meta({ fm: 'yes' }, '{rv}')), '?fieldManager=diff-put', 'application/json', true),
    put('name mismatch', bodyOf(t, { ...meta({}, '{rv}'), name: `${t.name}-other` })),
    put('missing object', bodyOf(t, { ...meta({}), name: 'diff-missing' })),
    put('unknown field Strict', unknown, '?fieldValidation=Strict&dryRun=All'),
    put('unknown field Warn', unknown, '?fieldValidation=Warn&dryRun=All'),
    put('bad JSON', '{"kind":'),
    patch('patch:merge', 'bad JSON', MERGE, '{'),
    patch('patch:merge', 'Accept protobuf', MERGE, JSON.stringify({ metadata: { labels: { pb: 'merge' } } }), '?dryRun=All', { Accept: PROTOBUF }),
    patch('patch:merge', 'Accept Table', MERGE, JSON.stringify({ metadata: { labels: { t: 'merge' } } }), '?dryRun=All', { Accept: TABLE }),
    patch('patch:merge', 'force on a merge patch', MERGE, '{}', '?force=true'),
    patch('patch:merge', 'fieldManager too long', MERGE, '{}', `?fieldManager=${'m'.repeat(129)}`),
    patch('patch:merge', 'unknown field Strict', MERGE, JSON.stringify({ diffUnknown: 1 }), '?fieldValidation=Strict'),
    patch('patch:merge', 'unknown field Warn', MERGE, JSON.stringify({ diffUnknown: 1 }), '?fieldValidation=Warn'),
    patch('patch:json', 'failed test', JSON_PATCH, JSON.stringify([{ op: 'test', path: '/metadata/name', value: 'nope' }])),
    patch('patch:json', 'bad path', JSON_PATCH, JSON.stringify([{ op: 'replace', path: '/diff/missing', value: 1 }])),
    patch('patch:json', 'not an array', JSON_PATCH, JSON.stringify({ op: 'add' })),
    patch('patch:json', 'bad op', JSON_PATCH, JSON.stringify([{ op: 'bogus', path: '/metadata' }])),
    patch('patch:strategic', 'bad directive', STRATEGIC, JSON.stringify({ $patch: 'bogus' })),
    patch('patch:strategic', 'delete a label', STRATEGIC, JSON.stringify({ metadata: { labels: { yaml: null } } })),
    patch('patch:other', 'unsupported type', 'application/foo', '{}'),
    patch('apply', 'manager a', APPLY, apply({ shared: 'a' }), '?fieldManager=diff-a'),
    patch('apply', 'manager b conflicts', APPLY, apply({ shared: 'b' }), '?fieldManager=diff-b'),
    patch('apply', 'manager b forces', APPLY, apply({ shared: 'b' }), '?fieldManager=diff-b&force=true'),
    patch('apply', 'bad force', APPLY, apply({ shared: 'b' }), '?fieldManager=diff-b&force=maybe'),
    patch('apply', 'dryRun=All', APPLY, apply({ dry: 'yes' }), '?fieldManager=diff-a&dryRun=All'),
    patch('apply', 'fieldManager too long', APPLY, apply({}), `?fieldManager=${'m'.repeat(129)}`),
    patch('apply', 'bad YAML', APPLY, 'a: [', '?fieldManager=diff-a'),
    patch('apply', 'wrong kind', APPLY, JSON.stringify({ apiVersion: t.apiVersion, kind: 'Secret', metadata: { name: t.name } }), '?fieldManager=diff-a'),
    patch('apply', 'unknown field Strict', APPLY, JSON.stringify({ ...JSON.parse(apply({})) as object, diffUnknown: 1 }), '?fieldManager=diff-a&fieldValidation=Strict'),
    patch('apply', 'create a new object', APPLY, JSON.stringify({ ...objectOf(t, { name: `${t.name}-applied` }), metadata: { name: `${t.name}-applied`, labels: labelOf(t) } }),
      '?fieldManager=diff-a'),
  ];
  for (const sub of ['status', 'scale']) {
    if (!t.subresources.includes(sub)) continue;
    const path = `${item}/${sub}`;
    cases.push(
      caseOf(t, sub, 'get protobuf', { method: 'GET', path, headers: { Accept: PROTOBUF } }),
      caseOf(t, sub, 'json patch', { method: 'PATCH', path, contentType: JSON_PATCH, body: JSON.stringify([{ op: 'add', path: '/metadata/labels/sub', value: sub }]) }),
      caseOf(t, sub, 'apply', { method: 'PATCH', path: `${path}?fieldManager=diff-sub`, contentType: APPLY, body: JSON.stringify(
        sub === 'scale' ? { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: t.name }, spec: { replicas: 3 } }
          : { apiVersion: t.apiVersion, kind: t.kind, metadata: { name: t.name } }) }),
    );
    if (sub === 'scale') {
      cases.push(caseOf(t, sub, 'negative replicas', { method: 'PATCH', path, contentType: MERGE, body: JSON.stringify({ spec: { replicas: -1 } }) }),
        caseOf(t, sub, 'update with stale resourceVersion', { method: 'PUT', path, body: JSON.stringify({
          apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: t.name, ...(t.namespaced ? { namespace: t.namespace } : {}), resourceVersion: '1' }, spec: { replicas: 1 },
        }) }));
    }
  }
  return cases;
}

function deleteCases(t: Target): DiffCase[] {
  const item = `${t.collection}/${t.name}`;
  const sel = `${t.collection}?${selectorOf(t)}`;
  const del = (name: string, query: string, body?: string | Buffer, contentType?: string): DiffCase =>
    caseOf(t, 'delete', name, { method: 'DELETE', path: `${item}${query}`, ...(body !== undefined ? { body } : {}), ...(contentType !== undefined ? { contentType } : {}) });
  const coll = (name: string, query: string, accept = 'application/json'): DiffCase =>
    caseOf(t, 'deletecollection', name, { method: 'DELETE', path: `${sel}${query}`, headers: { Accept: accept } });
  const opts = (o: Record<string, unknown>): Record<string, unknown> => ({ kind: 'DeleteOptions', apiVersion: 'v1', ...o });
  return [
    del('wrong resourceVersion precondition', '', JSON.stringify(opts({ preconditions: { resourceVersion: '1' } }))),
    del('Orphan, dry run', '?propagationPolicy=Orphan&dryRun=All'),
    del('Foreground, dry run', '?propagationPolicy=Foreground&dryRun=All'),
    del('Background, dry run', '?propagationPolicy=Background&dryRun=All'),
    del('orphanDependents and propagationPolicy', '?orphanDependents=true&propagationPolicy=Background&dryRun=All'),
    del('gracePeriodSeconds=0, dry run', '?gracePeriodSeconds=0&dryRun=All'),
    del('negative gracePeriodSeconds, dry run', '?gracePeriodSeconds=-1&dryRun=All'),
    del('YAML DeleteOptions', '', toYAML(opts({ dryRun: ['All'] })), YAML),
    del('protobuf DeleteOptions', '', protobufOf(opts({ dryRun: ['All'] })), PROTOBUF),
    del('DeleteOptions of another kind', '', JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', dryRun: ['All'] })),
    del('bad DeleteOptions JSON', '', '{'),
    del('bad dryRun', '?dryRun=Bogus'),
    del('uid precondition from the protobuf create', '', JSON.stringify(opts({ preconditions: { uid: '{uid2}' } }))),
    coll('bad labelSelector', `&labelSelector=${enc('a in (')}`),
    coll('bad propagationPolicy', '&propagationPolicy=Bogus'),
    coll('bad gracePeriodSeconds', '&gracePeriodSeconds=abc'),
    coll('Accept Table, dry run', '&dryRun=All', TABLE),
    coll('all', ''),
  ];
}

/** The matrix cases of a representative target, in order: its objects are named `<name>-m`. */
export function matrixCases(base: Target): DiffCase[] {
  const t: Target = { ...base, name: `${base.name}-m` };
  return [...createCases(t), ...readCases(t), ...writeCases(t), ...deleteCases(t)];
}
