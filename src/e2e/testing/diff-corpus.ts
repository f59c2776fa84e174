// The core differential corpus, generated for every resource kapi and the oracle both serve (see
// diff-resources.ts): invalid creates (a required property missing, a leaf of the wrong type, a
// bad enum value, unknown fields under each fieldValidation), the valid create, get and list in
// every Accept type, a short watch, update (valid, conflict, bad resourceVersion), every patch
// type, the status and scale subresources, delete with good and bad options, deletecollection.
// The full option matrix runs on a few resources only (diff-matrix.ts).
// No Go counterpart: the e2e test harness.
import type { DiffCase } from './differential.ts';
import type { JSONObject, JSONValue } from './fixtures/schema-example.ts';
import { KUBE_REQUIRES, setAt, type Target } from './diff-resources.ts';

export const MERGE = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const APPLY = 'application/apply-patch+yaml';
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';
export const PARTIAL = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
export const PARTIAL_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

/**
 * Deleted through finalizers only a controller removes (for jobs and replication controllers, the
 * orphan finalizer of their default garbage collection policy): the oracle runs no controllers, so
 * the object stays, terminating; kapi's in-process controllers remove it at their own pace. What
 * follows the delete is not compared.
 */
export const FINALIZED_ON_DELETE: ReadonlySet<string> = new Set([
  'namespaces', 'customresourcedefinitions.apiextensions.k8s.io', 'servicecidrs.networking.k8s.io', 'persistentvolumes', 'persistentvolumeclaims',
  'jobs.batch', 'replicationcontrollers',
]);

/** The label every object of a target carries, so lists and watches see only the target's own objects. */
export const labelOf = (t: Target): Record<string, string> => ({ 'diff-res': t.name });
export const selectorOf = (t: Target): string => `labelSelector=${encodeURIComponent(`diff-res=${t.name}`)}`;

function field(v: unknown, ...path: string[]): string | undefined {
  let x = v;
  for (const p of path) x = typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>)[p] : undefined;
  return typeof x === 'string' ? x : undefined;
}
export const remember = (key: string, ...path: string[]) => (v: unknown): Record<string, string> => {
  const x = field(v, ...path);
  return x === undefined ? {} : { [key]: x };
};

/** Whether the resource stores objects (the reviews and bindings only compute an answer). */
export const stored = (t: Target): boolean => t.verbs.includes('get');

/** The object in JSON form: the example, the target's metadata, `meta` laid over it. */
export function objectOf(t: Target, meta: Record<string, unknown> = {}, body: JSONObject = t.example): Record<string, unknown> {
  const metadata = stored(t)
    ? { name: t.name, ...(t.namespaced ? { namespace: t.namespace } : {}), labels: labelOf(t), ...meta }
    : { ...(t.hint.name === undefined ? {} : { name: t.name }), ...(t.namespaced ? { namespace: t.namespace } : {}), ...meta };
  return { apiVersion: t.apiVersion, kind: t.kind, metadata, ...body };
}
export const bodyOf = (t: Target, meta: Record<string, unknown> = {}, body: JSONObject = t.example): string => JSON.stringify(objectOf(t, meta, body));

/** A value of another JSON type than `type`. */
function wrongType(type: string): JSONValue {
  return type === 'string' ? 12345 : type === 'number' ? 'not-a-number' : 'not-a-boolean';
}

/** A case of the target: resource and the key `<resource>` (with the group) for the table. */
export function caseOf(t: Target, verb: string, name: string, rest: Omit<DiffCase, 'resource' | 'verb' | 'name'>): DiffCase {
  return { resource: t.key, verb, name, ...rest };
}

function createCases(t: Target): DiffCase[] {
  const dry = `${t.collection}?dryRun=All`;
  const cases: DiffCase[] = [];
  const post = (name: string, path: string, body: string): void => { cases.push(caseOf(t, 'create', name, { method: 'POST', path, body })); };
  if (t.required !== undefined) post('missing required', dry, bodyOf(t, {}, setAt(t.example, t.required, undefined)));
  if (t.leaf !== undefined) post('wrong type', dry, bodyOf(t, {}, setAt(t.example, t.leaf.path, wrongType(t.leaf.type))));
  if (t.enumPath !== undefined) post('bad enum', dry, bodyOf(t, {}, setAt(t.example, t.enumPath, 'DiffBogus')));
  const kubeRequires = KUBE_REQUIRES[t.key];
  if (kubeRequires !== undefined) post(`kube requires ${kubeRequires.path.join('.')}`, dry, bodyOf(t, {}, setAt(t.example, kubeRequires.path, undefined)));
  // Unknown fields at the top and inside the first object property of the example (spec, mostly).
  const nested = Object.keys(t.example).find((k) => typeof t.example[k] === 'object' && t.example[k] !== null && !Array.isArray(t.example[k]));
  let unknown: JSONObject = { ...t.example, diffUnknown: 1 };
  if (nested !== undefined) unknown = setAt(unknown, [nested, 'diffNested'], 'x');
  for (const v of ['Strict', 'Warn', 'Ignore']) post(`unknown field ${v}`, `${dry}&fieldValidation=${v}`, bodyOf(t, {}, unknown));
  cases.push(caseOf(t, 'create', 'valid', {
    method: 'POST', path: `${t.collection}?fieldValidation=Strict`, body: bodyOf(t), remember: (v) => ({ ...remember('rv', 'metadata', 'resourceVersion')(v) }),
  }));
  if (stored(t)) post('already exists', t.collection, bodyOf(t));
  return cases;
}

function readCases(t: Target): DiffCase[] {
  const item = `${t.collection}/${t.name}`;
  const sel = `${t.collection}?${selectorOf(t)}`;
  const get = (name: string, accept: string, path = item): DiffCase => caseOf(t, 'get', name, { method: 'GET', path, headers: { Accept: accept } });
  const list = (name: string, path: string, accept = 'application/json', rememberIt?: DiffCase['remember']): DiffCase =>
    caseOf(t, 'list', name, { method: 'GET', path, headers: { Accept: accept }, ...(rememberIt !== undefined ? { remember: rememberIt } : {}) });
  const cases: DiffCase[] = [];
  if (t.verbs.includes('get') && t.verbs.includes('create')) {
    cases.push(get('JSON', 'application/json'), get('YAML', 'application/yaml'), get('protobuf', PROTOBUF), get('Table', TABLE),
      get('PartialObjectMetadata', PARTIAL), get('missing', 'application/json', `${t.collection}/diff-missing`));
  }
  if (t.verbs.includes('list')) {
    cases.push(list('labelSelector', sel, 'application/json', remember('listRV', 'metadata', 'resourceVersion')),
      list('Table', sel, TABLE), list('PartialObjectMetadataList', sel, PARTIAL_LIST), list('protobuf', sel, PROTOBUF),
      list('fieldSelector', `${t.collection}?fieldSelector=${encodeURIComponent(`metadata.name=${t.name}`)}`),
      list('bad fieldSelector', `${t.collection}?fieldSelector=${encodeURIComponent('diff.bogus=1')}`),
      list('limit=1', `${sel}&limit=1`),
      list('resourceVersion=0 NotOlderThan', `${sel}&resourceVersion=0&resourceVersionMatch=NotOlderThan`),
      list('bad resourceVersionMatch', `${sel}&resourceVersion=0&resourceVersionMatch=Bogus`));
    if (t.namespaced) cases.push(list('whole namespace', t.collection));
  }
  if (t.verbs.includes('watch')) {
    // From the watch cache (resourceVersion=0): a watch without one waits for the cache to be
    // fresh, which may take longer than the short timeout (the oracle then answers a 504 event).
    cases.push(caseOf(t, 'watch', 'first events', { method: 'GET', path: `${sel}&watch=1&resourceVersion=0&timeoutSeconds=1` }));
  }
  return cases;
}

function writeCases(t: Target): DiffCase[] {
  const item = `${t.collection}/${t.name}`;
  const cases: DiffCase[] = [];
  if (t.verbs.includes('update')) {
    const put = (name: string, rv: string, labels: Record<string, string>, rememberIt = false): void => {
      cases.push(caseOf(t, 'update', name, {
        method: 'PUT', path: item, body: bodyOf(t, { resourceVersion: rv, labels: { ...labelOf(t), ...labels } }),
        ...(rememberIt ? { remember: remember('rv', 'metadata', 'resourceVersion') } : {}),
      }));
    };
    put('valid', '{rv}', { updated: 'yes' }, true);
    put('conflict', '1', { stale: 'yes' });
    put('bad resourceVersion', 'abc', { bad: 'yes' });
  }
  if (t.verbs.includes('patch')) {
    const patch = (verb: string, name: string, contentType: string, body: string, query = ''): void => {
      cases.push(caseOf(t, verb, name, { method: 'PATCH', path: `${item}${query}`, contentType, body }));
    };
    patch('patch:merge', 'labels', MERGE, JSON.stringify({ metadata: { labels: { merged: 'yes' } } }));
    patch('patch:merge', 'dryRun=All', MERGE, JSON.stringify({ metadata: { labels: { dry: 'yes' } } }), '?dryRun=All');
    patch('patch:json', 'add label', JSON_PATCH, JSON.stringify([{ op: 'add', path: '/metadata/labels/jsonpatched', value: 'yes' }]));
    patch('patch:strategic', 'labels', STRATEGIC, JSON.stringify({ metadata: { labels: { strategic: 'yes' } } }));
    const applied = JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata: { name: t.name, labels: { applied: 'yes' } } });
    patch('apply', 'fieldManager', APPLY, applied, '?fieldManager=diff-apply');
    patch('apply', 'no fieldManager', APPLY, applied);
  }
  for (const sub of ['status', 'scale']) {
    if (!t.subresources.includes(sub)) continue;
    cases.push(caseOf(t, sub, 'get', { method: 'GET', path: `${item}/${sub}` }));
    const body = sub === 'scale' ? { spec: { replicas: 2 } } : { metadata: { labels: { status: 'patched' } } };
    cases.push(caseOf(t, sub, 'merge patch', { method: 'PATCH', path: `${item}/${sub}`, contentType: MERGE, body: JSON.stringify(body) }));
  }
  return cases;
}

function deleteCases(t: Target): DiffCase[] {
  const item = `${t.collection}/${t.name}`;
  const cases: DiffCase[] = [];
  const sel = `${t.collection}?${selectorOf(t)}`;
  if (t.verbs.includes('deletecollection')) {
    cases.push(caseOf(t, 'deletecollection', 'dryRun=All', { method: 'DELETE', path: `${sel}&dryRun=All` }));
  }
  if (t.verbs.includes('delete')) {
    const del = (name: string, path: string, body?: string): void => {
      cases.push(caseOf(t, 'delete', name, { method: 'DELETE', path, ...(body !== undefined ? { body } : {}) }));
    };
    del('wrong uid precondition', item, JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: '00000000-0000-0000-0000-000000000000' } }));
    del('bad gracePeriodSeconds', `${item}?gracePeriodSeconds=abc`);
    del('bad propagationPolicy', `${item}?propagationPolicy=Bogus`);
    del('dryRun=All', `${item}?dryRun=All`);
    del('valid', item);
    if (!FINALIZED_ON_DELETE.has(t.key)) del('missing', item);
  }
  if (t.verbs.includes('deletecollection') && !FINALIZED_ON_DELETE.has(t.key)) {
    cases.push(caseOf(t, 'deletecollection', 'labelSelector', { method: 'DELETE', path: sel }));
  }
  return cases;
}

/** The core cases of a target, in the order they run. */
export function coreCases(t: Target): DiffCase[] {
  if (!t.verbs.includes('create')) return readCases(t);
  return [...createCases(t), ...readCases(t), ...writeCases(t), ...deleteCases(t)];
}
