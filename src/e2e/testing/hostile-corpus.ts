// The hostile-input corpus of issue 9: every request a tenant with little access can send to crash,
// freeze or get a 5xx out of kapi, with the answer kube-apiserver v1.36 gives. The expected answers
// were read from upstream (apimachinery's encoding/json depth cap of 10000 "exceeded max depth",
// evanphx/json-patch's AccumulatedCopySizeLimit set from JSONPatchMaxCopyBytes = 3 MiB and answered
// as a bare 422, the cacher's ParseResourceVersion and waitUntilFreshAndBlock, NamespaceKeyFunc's
// IsValidPathSegmentName, metav1's strconv conversion of ListOptions, go-restful's 415).
import { MAX_OBJECT_DEPTH } from '../../apimachinery/json-depth.ts';
import type { RawResponse } from './https-client.ts';
import { BLOB_PATH, CM_PATH, type HostileRequest } from './hostile-client.ts';
import {
  addOps, blobJSON, configMapJSON, configMapProtobuf, configMapWithDeepManagedFields, copyOps, deepArray, deepObject,
  labelSelector, manyKeysJSON, protoKeysData, protoKeysJSON,
} from '../../apimachinery/testing/hostile-bodies.ts';

export interface Want {
  readonly status: number;
  /** The Status reason; '' for kube's StatusReasonUnknown (the field is absent). */
  readonly reason?: string;
  readonly message?: RegExp;
}

export interface CaseContext {
  admin(req: HostileRequest): Promise<RawResponse>;
  attacker(req: HostileRequest): Promise<RawResponse>;
}

/** What must hold afterwards: `absent` (a refused create stored nothing), `unchanged` (a refused write left the object as it was). */
export type Stored =
  | { readonly kind: 'absent'; readonly path: string }
  | { readonly kind: 'unchanged'; readonly path: string }
  | { readonly kind: 'check'; readonly check: (c: CaseContext, r: RawResponse) => Promise<void> };

export interface HostileCase {
  readonly name: string;
  /** The admin's preparation, e.g. the object a patch targets (created before the request). */
  readonly setup?: HostileRequest;
  readonly request: HostileRequest | ((c: CaseContext) => Promise<HostileRequest>);
  readonly want: Want;
  readonly stored?: Stored;
}

/**
 * The deepest object kapi accepts end to end (kube: 10000 levels, its decoders' cap): deeper
 * cases expect kapi's documented 400 instead of kube's 2xx.
 */
export const KAPI_MAX_OBJECT_DEPTH = MAX_OBJECT_DEPTH;

const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';
const YAML = 'application/yaml';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const DEPTH: Want = { status: 400, reason: 'BadRequest', message: /depth/ };
const REJECTED_PATCH: Want = { status: 422, reason: 'Invalid', message: /^the server rejected our request due to an error in our request$/ };

const cm = (name: string): string => `${CM_PATH}/${name}`;
const absent = (path: string): Stored => ({ kind: 'absent', path });
const unchanged = (path: string): Stored => ({ kind: 'unchanged', path });
const adminCreate = (name: string, data = '{"a":"b"}'): HostileRequest => ({ method: 'POST', path: CM_PATH, body: configMapJSON(name, data) });

/** The object at `path` has exactly the data keys `keys` (or `count` of them), values intact. */
function dataIs(path: string, want: Readonly<Record<string, string>> | { count: number }): Stored {
  return {
    kind: 'check',
    async check(c) {
      const r = await c.admin({ method: 'GET', path });
      if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text.slice(0, 300)}`);
      const data = (JSON.parse(r.text) as { data?: Record<string, string> }).data ?? {};
      if ('count' in want && typeof want.count === 'number') {
        if (Object.keys(data).length !== want.count) throw new Error(`${path}: ${Object.keys(data).length} keys, want ${want.count}`);
        return;
      }
      for (const [k, v] of Object.entries(want)) {
        if (!Object.hasOwn(data, k) || data[k] !== v) throw new Error(`${path}: data[${k}] = ${JSON.stringify(data[k])}, want ${v}`);
      }
    },
  };
}

function deepCases(): HostileCase[] {
  const out: HostileCase[] = [];
  for (const n of [KAPI_MAX_OBJECT_DEPTH - 10, 1_700, 2_700]) {
    const name = `deep-${n}`;
    const path = `${BLOB_PATH}/${name}`;
    const body = blobJSON(name, deepObject(n));
    if (n > KAPI_MAX_OBJECT_DEPTH) {
      out.push({ name: `custom resource ${n} deep: refused by kapi's documented depth limit`,
        request: { method: 'POST', path: BLOB_PATH, body }, want: DEPTH, stored: absent(path) });
      continue;
    }
    out.push(
      { name: `custom resource ${n} deep: create`, request: { method: 'POST', path: BLOB_PATH, body }, want: { status: 201 } },
      { name: `custom resource ${n} deep: GET as YAML`, request: { method: 'GET', path, headers: { Accept: YAML } }, want: { status: 200 } },
      { name: `custom resource ${n} deep: PUT of what GET returned`,
        request: async (c) => ({ method: 'PUT', path, body: (await c.attacker({ method: 'GET', path })).text }), want: { status: 200 } },
      { name: `custom resource ${n} deep: merge patch beside the deep field`,
        request: { method: 'PATCH', path, contentType: MERGE, body: '{"spec":{"b":"c"}}' }, want: { status: 200 } },
      { name: `custom resource ${n} deep: merge patch as deep as the object`,
        request: { method: 'PATCH', path, contentType: MERGE, body: `{"spec":${deepObject(n, '2')}}` }, want: { status: 200 } },
      { name: `custom resource ${n} deep: JSON patch inside the deep field`,
        request: { method: 'PATCH', path, contentType: JSONPATCH, body: `[{"op":"replace","path":"/spec${'/a'.repeat(n)}","value":3}]` },
        want: { status: 200 } },
      { name: `custom resource ${n} deep: server-side apply`,
        request: { method: 'PATCH', path: `${path}?fieldManager=attacker&force=true`, contentType: APPLY, body },
        want: { status: 200 } },
      { name: `custom resource ${n} deep: GET as JSON and list`, request: { method: 'GET', path: BLOB_PATH }, want: { status: 200 } },
    );
  }
  return out;
}

function nestingCases(): HostileCase[] {
  const out: HostileCase[] = [];
  for (const n of [10_000, 100_000, 1_000_000]) {
    const name = `nest-${n}`;
    out.push(
      { name: `create with a JSON value nested ${n} deep`,
        request: { method: 'POST', path: CM_PATH, body: configMapJSON(name, '{}', `"x":${deepArray(n)}`) }, want: DEPTH, stored: absent(cm(name)) },
      { name: `create of a custom resource nested ${n} deep`,
        request: { method: 'POST', path: BLOB_PATH, body: blobJSON(name, deepArray(n)) }, want: DEPTH, stored: absent(`${BLOB_PATH}/${name}`) },
    );
  }
  const target = 'nest-target';
  out.push(
    { name: 'create with a YAML flow sequence nested 10000 deep',
      request: { method: 'POST', path: CM_PATH, contentType: YAML, body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nest-yaml\nx: ${deepArray(10_000)}\n` },
      want: DEPTH, stored: absent(cm('nest-yaml')) },
    { name: 'merge patch nested 10000 deep', setup: adminCreate(target),
      request: { method: 'PATCH', path: cm(target), contentType: MERGE, body: `{"x":${deepArray(10_000)}}` }, want: DEPTH, stored: unchanged(cm(target)) },
    { name: 'merge patch nested 1000000 deep',
      request: { method: 'PATCH', path: cm(target), contentType: MERGE, body: `{"x":${deepArray(1_000_000)}}` }, want: DEPTH, stored: unchanged(cm(target)) },
    { name: 'strategic merge patch nested 10000 deep',
      request: { method: 'PATCH', path: cm(target), contentType: SMP, body: `{"x":${deepArray(10_000)}}` }, want: DEPTH, stored: unchanged(cm(target)) },
    { name: 'JSON patch whose value is nested 10000 deep',
      request: { method: 'PATCH', path: cm(target), contentType: JSONPATCH, body: `[{"op":"add","path":"/x","value":${deepArray(10_000)}}]` },
      want: DEPTH, stored: unchanged(cm(target)) },
    { name: 'server-side apply nested 10000 deep',
      request: { method: 'PATCH', path: `${cm(target)}?fieldManager=attacker`, contentType: APPLY, body: configMapJSON(target, '{}', `"x":${deepArray(10_000)}`) },
      want: DEPTH, stored: unchanged(cm(target)) },
    { name: 'merge patch of a custom resource nested 100000 deep',
      setup: { method: 'POST', path: BLOB_PATH, body: blobJSON(target, '{"a":1}') },
      request: { method: 'PATCH', path: `${BLOB_PATH}/${target}`, contentType: MERGE, body: `{"spec":${deepArray(100_000)}}` },
      want: DEPTH, stored: unchanged(`${BLOB_PATH}/${target}`) },
  );
  return out;
}

function patchBombCases(): HostileCase[] {
  const big = 'bomb-target';
  const bigData = `{"big":"${'x'.repeat(1_000_000)}"}`;
  return [
    // kube: the third copy brings the accumulated copies (1 + 2 + 4 MB) over 3 MiB.
    { name: 'JSON patch copy bomb: 16 copies of /data on a 1 MB ConfigMap', setup: adminCreate(big, bigData),
      request: { method: 'PATCH', path: cm(big), contentType: JSONPATCH, body: copyOps('/data', 16) }, want: REJECTED_PATCH, stored: unchanged(cm(big)) },
    { name: 'JSON patch copy bomb: 16 copies of a 1 MB value',
      request: { method: 'PATCH', path: cm(big), contentType: JSONPATCH, body: copyOps('/data/big', 16) }, want: REJECTED_PATCH, stored: unchanged(cm(big)) },
    { name: 'JSON patch of 10001 operations', setup: adminCreate('ops-over'),
      request: { method: 'PATCH', path: cm('ops-over'), contentType: JSONPATCH, body: addOps(10_001) },
      want: { status: 413, reason: 'RequestEntityTooLarge', message: /^Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001$/ },
      stored: unchanged(cm('ops-over')) },
    { name: 'JSON patch of 10000 operations is applied', setup: adminCreate('ops-target'),
      request: { method: 'PATCH', path: cm('ops-target'), contentType: JSONPATCH, body: addOps(10_000) }, want: { status: 200 },
      stored: dataIs(cm('ops-target'), { count: 10_001 }) },
  ];
}

function sizeCases(): HostileCase[] {
  const keys = manyKeysJSON(100_000);
  const keys30 = manyKeysJSON(30_000);
  const out: HostileCase[] = [];
  for (const n of [300, 400, 1000]) {
    // fieldsV1 nests {"f:a":{…}} one level per field: n fields are n + 4 levels of the object.
    out.push(n + 4 > KAPI_MAX_OBJECT_DEPTH
      ? { name: `create with managedFields fieldsV1 nested ${n} deep: refused by kapi's documented depth limit`,
        request: { method: 'POST', path: CM_PATH, body: configMapWithDeepManagedFields(`mf-${n}`, n) }, want: DEPTH, stored: absent(cm(`mf-${n}`)) }
      : { name: `create with managedFields fieldsV1 nested ${n} deep`,
        request: { method: 'POST', path: CM_PATH, body: configMapWithDeepManagedFields(`mf-${n}`, n) }, want: { status: 201 },
        stored: dataIs(cm(`mf-${n}`), { a: 'b' }) });
  }
  out.push(
    // 100k keys and managedFields naming each are more than etcd's 1.5 MiB request limit: kube
    // stores them without managedFields (its create, update and patch handlers retry so), except
    // for server-side apply, whose managedFields are kept and which kube answers with etcd's 500.
    { name: 'ConfigMap with 100k keys (JSON)', request: { method: 'POST', path: CM_PATH, body: configMapJSON('keys-json', keys) },
      want: { status: 201 }, stored: dataIs(cm('keys-json'), { count: 100_000 }) },
    { name: 'ConfigMap with 100k keys (protobuf)',
      request: { method: 'POST', path: CM_PATH, contentType: PROTOBUF, body: configMapProtobuf('keys-pb', keys) },
      want: { status: 201 }, stored: dataIs(cm('keys-pb'), { count: 100_000 }) },
    { name: 'merge patch adding 100k keys', setup: adminCreate('keys-merge'),
      request: { method: 'PATCH', path: cm('keys-merge'), contentType: MERGE, body: `{"data":${keys}}` },
      want: { status: 200 }, stored: dataIs(cm('keys-merge'), { count: 100_001 }) },
    { name: 'strategic merge patch adding 100k keys', setup: adminCreate('keys-smp'),
      request: { method: 'PATCH', path: cm('keys-smp'), contentType: SMP, body: `{"data":${keys}}` },
      want: { status: 200 }, stored: dataIs(cm('keys-smp'), { count: 100_001 }) },
    { name: 'PUT of 100k keys', setup: adminCreate('keys-put'),
      request: { method: 'PUT', path: cm('keys-put'), body: configMapJSON('keys-put', keys) },
      want: { status: 200 }, stored: dataIs(cm('keys-put'), { count: 100_000 }) },
    { name: 'server-side apply of 100k keys',
      request: { method: 'PATCH', path: `${cm('keys-apply')}?fieldManager=attacker`, contentType: APPLY, body: configMapJSON('keys-apply', keys) },
      want: { status: 500, message: /trying to send message larger than max|request is too large/ }, stored: absent(cm('keys-apply')) },
    { name: 'server-side apply of 30k keys',
      request: { method: 'PATCH', path: `${cm('keys30-apply')}?fieldManager=attacker`, contentType: APPLY, body: configMapJSON('keys30-apply', keys30) },
      want: { status: 201 }, stored: dataIs(cm('keys30-apply'), { count: 30_000 }) },
    // kube on etcd: a 2.9 MiB value exceeds the etcd client's 2 MiB send limit (etcd itself refuses
    // more than 1.5 MiB with "etcdserver: request is too large"); both reach the client as 500.
    { name: 'a 2.9 MiB custom resource',
      request: { method: 'POST', path: BLOB_PATH, body: blobJSON('huge', `{"s":"${'x'.repeat(2.9 * 1024 * 1024)}"}`) },
      want: { status: 500, message: /trying to send message larger than max|request is too large/ }, stored: absent(`${BLOB_PATH}/huge`) },
    { name: 'a body over 3 MiB', request: { method: 'POST', path: CM_PATH, body: configMapJSON('too-big', `{"s":"${'x'.repeat(3 * 1024 * 1024)}"}`) },
      want: { status: 413, reason: 'RequestEntityTooLarge', message: /^Request entity too large: limit is 3145728$/ }, stored: absent(cm('too-big')) },
  );
  return out;
}

function protoKeyCases(): HostileCase[] {
  const data = protoKeysData();
  return [
    { name: 'ConfigMap keys named like Object.prototype members (JSON create)',
      request: { method: 'POST', path: CM_PATH, body: configMapJSON('proto-json', protoKeysJSON()) }, want: { status: 201 },
      stored: dataIs(cm('proto-json'), data) },
    { name: 'prototype keys (YAML create)',
      request: { method: 'POST', path: CM_PATH, contentType: YAML, body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proto-yaml\ndata: ${protoKeysJSON()}\n` },
      want: { status: 201 }, stored: dataIs(cm('proto-yaml'), data) },
    { name: 'prototype keys (protobuf create)',
      request: { method: 'POST', path: CM_PATH, contentType: PROTOBUF, body: configMapProtobuf('proto-pb', protoKeysJSON()) },
      want: { status: 201 }, stored: dataIs(cm('proto-pb'), data) },
    { name: 'prototype keys (merge patch)', setup: adminCreate('proto-merge'),
      request: { method: 'PATCH', path: cm('proto-merge'), contentType: MERGE, body: `{"data":${protoKeysJSON()}}` },
      want: { status: 200 }, stored: dataIs(cm('proto-merge'), { ...data, a: 'b' }) },
    { name: 'prototype keys (strategic merge patch)', setup: adminCreate('proto-smp'),
      request: { method: 'PATCH', path: cm('proto-smp'), contentType: SMP, body: `{"data":${protoKeysJSON()}}` },
      want: { status: 200 }, stored: dataIs(cm('proto-smp'), { ...data, a: 'b' }) },
    { name: 'prototype keys (JSON patch)', setup: adminCreate('proto-jp'),
      request: { method: 'PATCH', path: cm('proto-jp'), contentType: JSONPATCH,
        body: '[{"op":"add","path":"/data/__proto__","value":"p"},{"op":"add","path":"/data/constructor","value":"c"}]' },
      want: { status: 200 }, stored: dataIs(cm('proto-jp'), { __proto__: 'p', constructor: 'c', a: 'b' }) },
    { name: 'prototype keys (server-side apply)',
      request: { method: 'PATCH', path: `${cm('proto-apply')}?fieldManager=attacker`, contentType: APPLY, body: configMapJSON('proto-apply', protoKeysJSON()) },
      want: { status: 201 }, stored: dataIs(cm('proto-apply'), data) },
  ];
}

function requestShapeCases(): HostileCase[] {
  return [
    { name: 'a 10k-term labelSelector is served', request: { method: 'GET', path: `${CM_PATH}?labelSelector=${labelSelector(10_000)}` },
      want: { status: 200 } },
    { name: 'a 64 KB bearer token is served (401, not 431 or a reset)',
      request: { method: 'GET', path: CM_PATH, headers: { Authorization: `Bearer ${'a'.repeat(64 * 1024)}` } },
      want: { status: 401, reason: 'Unauthorized', message: /^Unauthorized$/ } },
    { name: 'a 64 KB header beside a valid token is served',
      request: { method: 'GET', path: CM_PATH, headers: { 'X-Padding': 'p'.repeat(64 * 1024) } }, want: { status: 200 } },
    { name: '?limit=1e30', request: { method: 'GET', path: `${CM_PATH}?limit=1e30` },
      want: { status: 400, reason: 'BadRequest', message: /strconv\.ParseInt: parsing "1e30": invalid syntax/ } },
    // kube: the cacher's ParseResourceVersion returns a storage.InvalidError that nothing maps to
    // an API status on the watch path, so ErrorToAPIStatus answers 500 with its text.
    { name: 'watch with resourceVersion=-5', request: { method: 'GET', path: `${CM_PATH}?watch=1&resourceVersion=-5` },
      want: { status: 500, reason: '', message: /^resourceVersion: Invalid value: "-5": strconv\.ParseUint: parsing "-5": invalid syntax$/ } },
    { name: 'create with Content-Type ";;;"', request: { method: 'POST', path: CM_PATH, contentType: ';;;', body: configMapJSON('semis') },
      want: { status: 415 }, stored: absent(cm('semis')) },
    { name: 'patch with Content-Type ";;;"', setup: adminCreate('semis-patch'),
      request: { method: 'PATCH', path: cm('semis-patch'), contentType: ';;;', body: '{"data":{"x":"y"}}' },
      want: { status: 415 }, stored: unchanged(cm('semis-patch')) },
    { name: 'GET configmaps/%2e%2e is not the namespace', request: { method: 'GET', path: `${CM_PATH}/%2e%2e` },
      want: { status: 400, reason: 'BadRequest', message: /^Name parameter invalid: "\.\.": may not be '\.\.'$/ } },
    { name: 'GET configmaps/%2e is not the list', request: { method: 'GET', path: `${CM_PATH}/%2e` },
      want: { status: 400, reason: 'BadRequest', message: /^Name parameter invalid: "\.": may not be '\.'$/ } },
    { name: 'a truncated protobuf body', request: { method: 'POST', path: CM_PATH, contentType: PROTOBUF,
      body: configMapProtobuf('pb-cut', '{"a":"b"}').subarray(0, 20) }, want: { status: 400, reason: 'BadRequest' }, stored: absent(cm('pb-cut')) },
  ];
}

/** Every case, in the order they run (the deep custom resource cases build on each other). */
export function hostileCases(): HostileCase[] {
  return [...requestShapeCases(), ...protoKeyCases(), ...nestingCases(), ...patchBombCases(), ...sizeCases(), ...deepCases()];
}
