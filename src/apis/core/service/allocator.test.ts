import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Backend } from '../../../storage/backend.ts';
import type { Interface as Storage } from '../../../storage/interfaces.ts';
import { jsonCodec } from '../../../storage/json-codec.ts';
import { openSqliteBackend } from '../../../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../../../storage/store.ts';
import { AllocationError, Bitmap } from './bitmap.ts';
import { newIPAllocator, SERVICE_IPS_KEY } from './ipallocator.ts';
import { newPortAllocator, parsePortRange } from './portallocator.ts';

const first = (): number => 0;

describe('allocators on sqlite storage', () => {
  let dir = '';
  let backends: Backend[] = [];
  let storage: Storage;
  let other: Storage; // a second server's storage layer over the same database
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kapi-alloc-'));
    const a = await openSqliteBackend({ path: join(dir, 'state.db') });
    backends = [a];
    storage = newStore(a, jsonCodec);
    other = newStore(a, jsonCodec);
  });
  after(async () => {
    for (const b of backends) await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('allocates explicit and next IPs, never the first address dynamically', async () => {
    const ips = newIPAllocator(storage, '10.0.0.0/29', { key: '/test/ips1', random: first });
    assert.equal(await ips.free(), 6);
    await ips.allocate('10.0.0.1');
    await assert.rejects(ips.allocate('10.0.0.1'), (e: unknown) => e instanceof AllocationError && e.message === 'provided IP is already allocated');
    await assert.rejects(ips.allocate('10.0.1.1'), {
      message: 'the provided IP (10.0.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/29',
    });
    await assert.rejects(ips.allocate('10.0.0.7'), { name: 'AllocationError' }); // broadcast
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await ips.allocateNext());
    assert.deepEqual(got.sort(), ['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6']);
    await assert.rejects(ips.allocateNext(), { message: 'range is full' });
    await ips.release('10.0.0.4');
    assert.equal(await ips.has('10.0.0.4'), false);
    assert.equal(await ips.allocateNext(), '10.0.0.4');
  });

  it('keeps the first address free when exhausting dynamically', async () => {
    const ips = newIPAllocator(storage, '10.1.0.0/30', { key: '/test/ips2', random: first });
    assert.equal(await ips.allocateNext(), '10.1.0.2');
    await assert.rejects(ips.allocateNext(), { message: 'range is full' });
    await ips.allocate('10.1.0.1');
  });

  it('dry runs do not persist', async () => {
    const ips = newIPAllocator(storage, '10.2.0.0/24', { key: '/test/ips3', random: first });
    await ips.allocate('10.2.0.9', true);
    assert.equal(await ips.has('10.2.0.9'), false);
    const ip = await ips.allocateNext(true);
    assert.equal(await ips.has(ip), false);
  });

  it('stores a RangeAllocation at the key', async () => {
    const ips = newIPAllocator(storage, '10.3.0.0/24', { random: first });
    await ips.allocate('10.3.0.1');
    const obj = await storage.get(SERVICE_IPS_KEY, {}) as unknown as { kind: string; range: string; data: string };
    assert.equal(obj.kind, 'RangeAllocation');
    assert.equal(obj.range, '10.3.0.0/24');
    assert.equal(obj.data, Buffer.from([1]).toString('base64'));
  });

  it('two servers sharing storage never hand out the same IP', async () => {
    const a = newIPAllocator(storage, '10.4.0.0/27', { key: '/test/shared' });
    const b = newIPAllocator(other, '10.4.0.0/27', { key: '/test/shared' });
    const results = await Promise.all(Array.from({ length: 29 }, (_, i) => (i % 2 === 0 ? a : b).allocateNext()));
    assert.equal(new Set(results).size, 29);
    await assert.rejects(a.allocateNext(), { message: 'range is full' });
  });

  it('allocates node ports', async () => {
    const ports = newPortAllocator(storage, '30000-30004', { key: '/test/ports', random: first });
    assert.equal(ports.range, '30000-30004');
    await ports.allocate(30000);
    await assert.rejects(ports.allocate(30000), { message: 'provided port is already allocated' });
    await assert.rejects(ports.allocate(80), { message: 'provided port is not in the valid range. The range of valid ports is 30000-30004' });
    const got = new Set<number>();
    for (let i = 0; i < 4; i++) got.add(await ports.allocateNext());
    assert.deepEqual([...got].sort(), [30001, 30002, 30003, 30004]);
    await assert.rejects(ports.allocateNext(), { message: 'range is full' });
    await ports.release(30002);
    assert.equal(await ports.free(), 1);
  });
});

describe('bitmap encoding', () => {
  it('round-trips as a big-endian integer', () => {
    const b = new Bitmap(20);
    b.set(0);
    b.set(9);
    assert.equal(b.encode(), Buffer.from([0x02, 0x01]).toString('base64'));
    const d = Bitmap.decode(20, b.encode());
    assert.ok(d.has(0) && d.has(9) && !d.has(1));
    assert.equal(d.count(), 2);
  });
  it('parses port ranges', () => {
    assert.deepEqual(parsePortRange('30000-32767'), { base: 30000, size: 2768 });
    assert.equal(parsePortRange('x'), undefined);
  });
});
