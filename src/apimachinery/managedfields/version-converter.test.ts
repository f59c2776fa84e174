import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../errors/status-error.ts';
import type { KubeObject, Unstructured } from '../meta/types.ts';
import type { SchemaNode } from '../openapi/index.ts';
import { apply, updateManagedFields } from './field-manager.ts';
import { withConversions, type AsyncVersionConverter } from './version-converter.ts';

// A kind with two shapes: v1 spec {host, port}, v2 spec {address: "host:port"}.
const V1 = 'x.io/v1';
const V2 = 'x.io/v2';
const schemaWith = (spec: Record<string, SchemaNode>): SchemaNode => ({
  type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { type: 'object', properties: spec } },
});
const SCHEMAS: Readonly<Record<string, SchemaNode>> = {
  [V1]: schemaWith({ host: { type: 'string' }, port: { type: 'integer' } }),
  [V2]: schemaWith({ address: { type: 'string' } }),
};
type Obj = KubeObject & Unstructured & { spec?: Record<string, unknown> };

function convertWidget(o: KubeObject, to: string): Obj {
  const out = structuredClone(o) as Obj;
  const spec = out.spec ?? {};
  if (to === V2 && o.apiVersion === V1) {
    const { host, port, ...rest } = spec;
    out.spec = { ...rest, ...(host !== undefined || port !== undefined ? { address: `${String(host ?? '')}:${String(port ?? '')}` } : {}) };
  } else if (to === V1 && o.apiVersion === V2) {
    const { address, ...rest } = spec;
    const [host, port] = typeof address === 'string' ? address.split(':') : [];
    out.spec = { ...rest, ...(host !== undefined ? { host } : {}), ...(port !== undefined && port !== '' ? { port: Number(port) } : {}) };
  }
  out.apiVersion = to;
  return out;
}

/** The converter, counting its conversions; `fail` makes each one reject. */
function converter(fail?: string): AsyncVersionConverter & { calls: number } {
  const c = {
    calls: 0,
    convert: (obj: KubeObject, apiVersion: string): Promise<KubeObject> => {
      c.calls++;
      return fail === undefined ? Promise.resolve(convertWidget(obj, apiVersion)) : Promise.reject(new StatusError({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '', message: fail,
      }));
    },
    schemaOf: (apiVersion: string) => SCHEMAS[apiVersion] ?? null,
  };
  return c;
}

const widget = (apiVersion: string, spec: Record<string, unknown>): Obj => ({ apiVersion, kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec });
const stored = (o: KubeObject): Obj => ({ ...o, metadata: { ...o.metadata, uid: 'u1', resourceVersion: '1' } });

async function applyAt(live: KubeObject | undefined, version: string, manager: string, spec: Record<string, unknown>,
  opts: { force?: boolean; conv?: AsyncVersionConverter } = {}): Promise<Obj> {
  const conv = opts.conv ?? converter();
  // The server reads the live object in the request's version.
  const current = live === undefined ? undefined : convertWidget(live, version);
  const scope = { apiVersion: version, kind: 'Widget', schema: SCHEMAS[version] };
  const out = await withConversions(conv, (c) => apply({ ...scope, converter: c, live: current, patch: widget(version, spec), manager, force: opts.force ?? false, time: '2026-01-01T00:00:00Z' }));
  return stored(out.object);
}

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  try { await p; } catch (err) { if (err instanceof StatusError) return err; throw err; }
  assert.fail('expected a rejection');
}

const managers = (o: KubeObject): unknown[] => (o.metadata.managedFields ?? []).map((e) => [e.manager, e.apiVersion, e.fieldsV1]);

describe('server-side apply with managers in other versions (withConversions)', () => {
  it('conflicts are found in the other manager\'s version', async () => {
    const alice = await applyAt(undefined, V1, 'alice', { host: 'h', port: 80 });
    const cases = [
      { name: 'another address in v2 changes alice\'s host and port', spec: { address: 'x:81' },
        want: 'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.host\n- .spec.port' },
      { name: 'another port only', spec: { address: 'h:81' }, want: 'Apply failed with 1 conflict: conflict with "alice": .spec.port' },
    ];
    for (const c of cases) {
      const err = await rejection(applyAt(alice, V2, 'bob', c.spec));
      assert.deepEqual([err.status.code, err.status.reason, err.status.message], [409, 'Conflict', c.want], c.name);
    }
  });

  it('the same value in another version is shared; forcing takes the fields in every version', async () => {
    const alice = await applyAt(undefined, V1, 'alice', { host: 'h', port: 80 });
    const shared = await applyAt(alice, V2, 'bob', { address: 'h:80' });
    assert.deepEqual(managers(shared), [
      // bob's entry has no time (the object did not change), and comes first, as kube orders it.
      ['bob', V2, { 'f:spec': { 'f:address': {} } }], ['alice', V1, { 'f:spec': { 'f:host': {}, 'f:port': {} } }],
    ]);
    const forced = await applyAt(shared, V2, 'bob', { address: 'z:5' }, { force: true });
    assert.deepEqual([forced.spec, managers(forced)], [{ address: 'z:5' }, [['bob', V2, { 'f:spec': { 'f:address': {} } }]]]);
  });

  it('an update in another version takes what it changed from managers of every version', async () => {
    const alice = await applyAt(undefined, V1, 'alice', { host: 'h', port: 80 });
    const conv = converter();
    const out = await withConversions(conv, (c) => updateManagedFields({
      apiVersion: V2, kind: 'Widget', schema: SCHEMAS[V2], converter: c, live: convertWidget(alice, V2), updated: { ...convertWidget(alice, V2), spec: { address: 'h:81' } },
      manager: 'dave', time: '2026-01-01T00:00:00Z',
    }));
    assert.deepEqual(managers(out), [
      ['alice', V1, { 'f:spec': { 'f:host': {} } }], ['dave', V2, { 'f:spec': { 'f:address': {} } }],
    ]);
  });

  it('a manager of a version the kind no longer has is dropped', async () => {
    const alice = await applyAt(undefined, V1, 'alice', { host: 'h', port: 80 });
    const old = { ...alice, metadata: { ...alice.metadata, managedFields: (alice.metadata.managedFields ?? []).map((e) => ({ ...e, apiVersion: 'x.io/v9' })) } };
    const out = await applyAt(old, V1, 'bob', { host: 'other' });
    assert.deepEqual(managers(out), [['bob', V1, { 'f:spec': { 'f:host': {} } }]]);
  });

  it('a failing conversion: apply answers the converter\'s text as a 500, an update drops managedFields (kube v1.36)', async () => {
    const alice = await applyAt(undefined, V1, 'alice', { host: 'h', port: 80 });
    const bob = await applyAt(alice, V2, 'bob', { address: 'h:80' });
    const err = await rejection(applyAt(bob, V1, 'alice', { host: 'h', port: 80 }, { conv: converter('webhook down') }));
    assert.deepEqual([err.status.code, err.status.reason, err.status.message], [500, '', 'webhook down']);
    const live = convertWidget(bob, V1);
    const out = await withConversions(converter('webhook down'), (c) => updateManagedFields({
      apiVersion: V1, kind: 'Widget', schema: SCHEMAS[V1], converter: c, live, updated: { ...live, spec: { host: 'y', port: 80 } }, manager: 'carol', time: '2026-01-01T00:00:00Z',
    }));
    assert.equal(out.metadata.managedFields, undefined);
  });

  it('each conversion is made once per write, however often the updater asks', async () => {
    const alice = await applyAt(undefined, V1, 'alice', { host: 'h', port: 80 });
    const conv = converter();
    await applyAt(alice, V2, 'bob', { address: 'z:5' }, { conv, force: true });
    // The live object (asked for twice: reconciling, then comparing) and the new one, each converted to v1 once.
    assert.equal(conv.calls, 2);
  });
});
