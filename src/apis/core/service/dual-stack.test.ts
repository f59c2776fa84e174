// Dual-stack allocation (kube's MetaAllocator over two service CIDRs): one address per entry of
// spec.ipFamilies, the secondary given on upgrade and released on downgrade, addresses outside
// every range refused with ErrMismatchedNetwork, and each allocated or released address reported
// to the IPAddress recorder once the write is committed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Backend } from '../../../storage/backend.ts';
import { jsonCodec } from '../../../storage/json-codec.ts';
import { openSqliteBackend } from '../../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../../storage/store.ts';
import type { Service } from '../v1/types.ts';
import type { IPAddressRecorder } from './alloc.ts';
import { defaultService } from './defaults.ts';
import { newIPAllocator } from './ipallocator.ts';
import { newPortAllocator } from './portallocator.ts';
import { newServiceDefinition } from './service.ts';

const ctx = systemContext('default');
const svc = (name: string, spec: Partial<Service['spec']> = {}): Service => {
  const s: Service = { metadata: { name, namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec } };
  defaultService(s);
  return s;
};
const families = (s: Service): string[] => (s.spec.clusterIPs ?? []).map((ip) => (ip.includes(':') ? 'IPv6' : 'IPv4'));

describe('dual-stack service allocation', () => {
  let backend: Backend;
  let def: ReturnType<typeof newServiceDefinition>;
  const held = new Map<string, string>();
  const recorder: IPAddressRecorder = {
    async allocated(ip, family, parent) { held.set(ip, `${family} ${parent.namespace}/${parent.name}`); },
    async released(ip) { held.delete(ip); },
    async exists(ip) { return held.has(ip) || ip === '10.0.0.99'; },
  };
  const create = async (s: Service, dryRun = false): Promise<Service> => {
    await (await def.hooks.beginCreate?.(ctx, s, dryRun))?.(true);
    return s;
  };
  const update = async (s: Service, old: Service): Promise<Service> => {
    await (await def.hooks.beginUpdate?.(ctx, s, old, false))?.(true);
    return s;
  };
  before(async () => {
    backend = await openSqliteBackend({ path: ':memory:' });
    const storage = newStore(backend, jsonCodec);
    def = newServiceDefinition({
      serviceIPs: newIPAllocator(storage, '10.0.0.0/24'),
      secondaryServiceIPs: newIPAllocator(storage, 'fd00::/108', { key: '/registry/ranges/secondaryserviceips' }),
      nodePorts: newPortAllocator(storage, '30000-32767'),
      ipAddresses: recorder,
    });
  });
  after(async () => { await backend.close(); });

  const cases: { name: string; spec: Partial<Service['spec']>; policy: string; fams: string[] }[] = [
    { name: 'SingleStack: the primary family', spec: {}, policy: 'SingleStack', fams: ['IPv4'] },
    { name: 'SingleStack IPv6', spec: { ipFamilies: ['IPv6'] }, policy: 'SingleStack', fams: ['IPv6'] },
    { name: 'PreferDualStack: both, primary first', spec: { ipFamilyPolicy: 'PreferDualStack' }, policy: 'PreferDualStack', fams: ['IPv4', 'IPv6'] },
    { name: 'RequireDualStack', spec: { ipFamilyPolicy: 'RequireDualStack' }, policy: 'RequireDualStack', fams: ['IPv4', 'IPv6'] },
    { name: 'RequireDualStack IPv6 first', spec: { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] }, policy: 'RequireDualStack', fams: ['IPv6', 'IPv4'] },
    // Chosen from the lower (static) band, which dynamic allocation leaves alone while the upper
    // band has room, so the earlier cases' random addresses cannot collide with them.
    { name: 'chosen addresses', spec: { ipFamilyPolicy: 'RequireDualStack', clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', 'fd00::a'] },
      policy: 'RequireDualStack', fams: ['IPv4', 'IPv6'] },
  ];
  for (const [i, c] of cases.entries()) {
    it(c.name, async () => {
      const s = await create(svc(`c${i}`, c.spec));
      assert.deepEqual([s.spec.ipFamilyPolicy, s.spec.ipFamilies, families(s)], [c.policy, c.fams, c.fams]);
      assert.equal(s.spec.clusterIP, s.spec.clusterIPs?.[0]);
      for (const ip of s.spec.clusterIPs ?? []) assert.equal(held.get(ip), `${ip.includes(':') ? 'IPv6' : 'IPv4'} default/c${i}`);
    });
  }

  it('an address an IPAddress object holds is taken', async () => {
    await assert.rejects(create(svc('held', { clusterIP: '10.0.0.99', clusterIPs: ['10.0.0.99'] })), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.deepEqual(err.status.details?.causes?.map((c) => c.message), ['Invalid value: ["10.0.0.99"]: failed to allocate IP 10.0.0.99: provided IP is already allocated']);
      return true;
    });
    // the bitmap was given back: a dry run (which checks the range only) passes
    await create(svc('held-dry', { clusterIP: '10.0.0.99', clusterIPs: ['10.0.0.99'] }), true);
  });

  it('dry run records nothing', async () => {
    const before = held.size;
    await create(svc('dry', { ipFamilyPolicy: 'RequireDualStack' }), true);
    assert.equal(held.size, before);
  });

  it('an address outside every range: the provided network does not match the current range', async () => {
    await assert.rejects(create(svc('out', { clusterIP: 'fd01::5', clusterIPs: ['fd01::5'] })), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.deepEqual(err.status.details?.causes?.map((c) => c.message), ['Invalid value: ["fd01::5"]: failed to allocate IP fd01::5: the provided network does not match the current range']);
      return true;
    });
  });

  it('upgrade allocates the secondary; downgrade releases it', async () => {
    const old = await create(svc('up'));
    const up = await update({ ...structuredClone(old), spec: { ...structuredClone(old.spec), ipFamilyPolicy: 'RequireDualStack' } }, old);
    assert.deepEqual(families(up), ['IPv4', 'IPv6']);
    assert.equal(up.spec.clusterIPs?.[0], old.spec.clusterIP);
    const secondary = up.spec.clusterIPs?.[1] ?? '';
    assert.ok(held.has(secondary));
    const down = await update({ ...structuredClone(up), spec: { ...structuredClone(up.spec), ipFamilyPolicy: 'SingleStack' } }, up);
    assert.deepEqual([down.spec.clusterIPs, down.spec.ipFamilies], [[old.spec.clusterIP], ['IPv4']]);
    assert.equal(held.has(secondary), false);
  });

  it('delete releases both addresses', async () => {
    const s = await create(svc('gone', { ipFamilyPolicy: 'PreferDualStack' }));
    await def.hooks.afterDelete?.(ctx, s);
    for (const ip of s.spec.clusterIPs ?? []) assert.equal(held.has(ip), false);
  });

  it('without a secondary range RequireDualStack is refused with kube\'s message', async () => {
    const storage = newStore(backend, jsonCodec);
    const single = newServiceDefinition({ serviceIPs: newIPAllocator(storage, '10.1.0.0/24', { key: '/registry/ranges/other' }), nodePorts: newPortAllocator(storage, '30000-32767') });
    await assert.rejects(single.hooks.beginCreate?.(ctx, svc('req', { ipFamilyPolicy: 'RequireDualStack' }), true) ?? Promise.resolve(), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.deepEqual((err.status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`),
        ['spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services']);
      return true;
    });
  });
});
