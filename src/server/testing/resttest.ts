// The conformance cases every stored resource passes, in the spirit of kube's
// registry/rest/resttest (TestCreate, TestGet, TestList, TestUpdate, TestDelete): create with a
// generated name, AlreadyExists, get, not found, list with label and field selectors, update and
// a stale update's Conflict, namespace scoping, delete and a second delete's NotFound. They go
// through the whole handler chain with a caller-supplied request function (inject(), no socket),
// so what they check is what a client sees.
// Counterpart of k8s.io/apiserver/pkg/registry/rest/resttest/resttest.go.
import assert from 'node:assert/strict';
import type { InjectRequest, InjectResponse } from './inject.ts';

export type Send = (req: InjectRequest) => Promise<InjectResponse>;

export interface RESTResource {
  /** resource.group, or resource for the core group (for messages). */
  readonly key: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export interface RESTConformanceOptions {
  /** The namespace the objects live in ('' for a cluster-scoped resource). */
  readonly namespace: string;
  /** Another existing namespace: nothing of this resource's may show there. */
  readonly otherNamespace: string;
  /** A valid object of the kind: what goes beside apiVersion, kind and metadata. */
  readonly sample: Readonly<Record<string, unknown>>;
  /** The name kube requires (IPAddresses, CRDs, APIServices): then no generated name. */
  readonly fixedName?: string;
  /** Deletion waits for a controller to finalize the object: GET answers 404 once it is done. */
  readonly finalizedOnDelete?: boolean;
}

interface Obj {
  readonly metadata: {
    readonly name?: string; readonly uid?: string; readonly resourceVersion?: string; readonly labels?: Record<string, string>;
    readonly deletionTimestamp?: string;
  };
  readonly [k: string]: unknown;
}
interface List { readonly kind: string; readonly items: Obj[] }
interface StatusBody { readonly kind: string; readonly code: number; readonly reason: string; readonly details?: { name?: string; group?: string; kind?: string } }

const apiVersion = (r: RESTResource): string => (r.group === '' ? r.version : `${r.group}/${r.version}`);
const gvPath = (r: RESTResource): string => (r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`);
const collection = (r: RESTResource, ns: string): string => `${gvPath(r)}${r.namespaced ? `/namespaces/${ns}` : ''}/${r.resource}`;

function expect<T>(res: InjectResponse, code: number, what: string): T {
  assert.equal(res.statusCode, code, `${what}: ${res.statusCode} ${res.text.slice(0, 600)}`);
  return res.json() as T;
}

function expectStatus(res: InjectResponse, code: number, reason: string, what: string): StatusBody {
  const s = expect<StatusBody>(res, code, what);
  assert.equal(s.kind, 'Status', what);
  assert.equal(s.code, code, what);
  assert.equal(s.reason, reason, what);
  return s;
}

const names = (l: List): string[] => l.items.map((o) => o.metadata.name ?? '').sort();

/** HANG_GUARD: a bound on waiting for a controller, not a timing assertion. */
async function eventuallyGone(send: Send, path: string, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await send({ method: 'GET', url: path });
    if (res.statusCode === 404) return;
    if (Date.now() > deadline) assert.fail(`${what}: still there (${res.statusCode})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function runRESTConformance(send: Send, r: RESTResource, o: RESTConformanceOptions): Promise<void> {
  const coll = collection(r, o.namespace);
  const gr = { group: r.group, kind: r.resource };
  const metaNS = r.namespaced ? { namespace: o.namespace } : {};
  const body = (metadata: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: apiVersion(r), kind: r.kind, metadata, ...o.sample });

  // create, with a generated name where kube allows any name
  const meta = o.fixedName === undefined ? { generateName: 'rt-', labels: { rt: 'a' }, ...metaNS } : { name: o.fixedName, labels: { rt: 'a' }, ...metaNS };
  const created = expect<Obj>(await send({ method: 'POST', url: coll, body: body(meta) }), 201, `${r.key}: POST ${coll}`);
  const name = created.metadata.name ?? '';
  if (o.fixedName === undefined) assert.match(name, /^rt-[a-z0-9]{5}$/, `${r.key}: generated name`);
  assert.ok((created.metadata.uid ?? '') !== '', `${r.key}: uid`);
  const item = `${coll}/${encodeURIComponent(name)}`;

  // the same name again
  const exists = expectStatus(await send({ method: 'POST', url: coll, body: body({ ...meta, name, generateName: undefined }) }), 409, 'AlreadyExists', `${r.key}: POST again`);
  assert.deepEqual({ name: exists.details?.name, group: exists.details?.group ?? '', kind: exists.details?.kind }, { name, ...gr }, `${r.key}: AlreadyExists details`);

  // get, and a name that does not exist
  const got = expect<Obj>(await send({ method: 'GET', url: item }), 200, `${r.key}: GET`);
  assert.equal(got.metadata.uid, created.metadata.uid, `${r.key}: GET uid`);
  const missing = expectStatus(await send({ method: 'GET', url: `${coll}/rt-missing` }), 404, 'NotFound', `${r.key}: GET missing`);
  assert.deepEqual({ name: missing.details?.name, group: missing.details?.group ?? '', kind: missing.details?.kind }, { name: 'rt-missing', ...gr }, `${r.key}: NotFound details`);

  // list with selectors
  const list = async (query: string): Promise<string[]> =>
    names(expect<List>(await send({ method: 'GET', url: `${coll}?${query}` }), 200, `${r.key}: LIST ?${query}`)).filter((n) => n === name);
  const selections: { query: string; want: string[] }[] = [
    { query: 'labelSelector=rt%3Da', want: [name] },
    { query: 'labelSelector=rt%3Dzzz', want: [] },
    { query: 'labelSelector=rt%2Crt%21%3Db', want: [name] },
    { query: `fieldSelector=metadata.name%3D${encodeURIComponent(name)}`, want: [name] },
    { query: 'fieldSelector=metadata.name%3Drt-missing', want: [] },
  ];
  for (const s of selections) assert.deepEqual(await list(s.query), s.want, `${r.key}: LIST ?${s.query}`);
  const whole = expect<List>(await send({ method: 'GET', url: coll }), 200, `${r.key}: LIST`);
  assert.equal(whole.kind, `${r.kind}List`, `${r.key}: list kind`);

  // namespace scoping
  if (r.namespaced) {
    const other = collection(r, o.otherNamespace);
    expectStatus(await send({ method: 'GET', url: `${other}/${encodeURIComponent(name)}` }), 404, 'NotFound', `${r.key}: GET in another namespace`);
    assert.deepEqual(names(expect<List>(await send({ method: 'GET', url: other }), 200, `${r.key}: LIST another namespace`)).filter((n) => n === name), [],
      `${r.key}: LIST another namespace`);
  }

  // update, then the same update with the stale resourceVersion
  const changed = { ...got, metadata: { ...got.metadata, labels: { ...got.metadata.labels, rt: 'b' } } };
  const updated = expect<Obj>(await send({ method: 'PUT', url: item, body: changed }), 200, `${r.key}: PUT`);
  assert.equal(updated.metadata.labels?.['rt'], 'b', `${r.key}: PUT label`);
  assert.notEqual(updated.metadata.resourceVersion, got.metadata.resourceVersion, `${r.key}: PUT resourceVersion`);
  expectStatus(await send({ method: 'PUT', url: item, body: { ...changed, metadata: { ...changed.metadata, labels: { rt: 'c' } } } }),
    409, 'Conflict', `${r.key}: PUT with a stale resourceVersion`);

  // delete, then delete again
  const del = await send({ method: 'DELETE', url: item });
  assert.ok(del.statusCode === 200 || del.statusCode === 202, `${r.key}: DELETE ${del.statusCode} ${del.text.slice(0, 300)}`);
  const after = await send({ method: 'GET', url: item });
  // A finalizer (the orphan finalizer of a default garbage collection policy, a controller's)
  // holds the object with a deletionTimestamp until its controller is done.
  const held = after.statusCode === 200 && (after.json() as Obj).metadata.deletionTimestamp !== undefined;
  if (o.finalizedOnDelete === true || held) {
    await eventuallyGone(send, item, `${r.key}: DELETE`);
  } else {
    expectStatus(after, 404, 'NotFound', `${r.key}: GET after DELETE`);
    expectStatus(await send({ method: 'DELETE', url: item }), 404, 'NotFound', `${r.key}: DELETE again`);
  }
}
