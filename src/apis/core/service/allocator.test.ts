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
import { SortedSet } from './offset-set.ts';
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
    assert.equal(ip, '10.2.0.0'); // kube's dry-run allocator answers the network address
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

  // kube v1.36 takes ranges of any size; the set of allocated addresses grows with the
  // allocations, never with the range.
  const LARGE: readonly { name: string; cidr: string; far: string; outside: readonly string[]; last: string; lastOK: boolean }[] = [
    { name: 'IPv4 /12', cidr: '10.16.0.0/12', far: '10.31.200.7', outside: ['10.16.0.0', '10.32.0.1', '10.15.255.254'], last: '10.31.255.254', lastOK: true },
    { name: 'IPv4 /12 broadcast', cidr: '10.16.0.0/12', far: '10.20.0.1', outside: ['10.31.255.255'], last: '10.31.255.253', lastOK: true },
    { name: 'IPv4 /8', cidr: '10.0.0.0/8', far: '10.200.3.4', outside: ['10.0.0.0', '10.255.255.255', '11.0.0.1'], last: '10.255.255.254', lastOK: true },
    { name: 'IPv6 /64', cidr: 'fd00::/64', far: 'fd00::ffff:1234:5678:9abc', outside: ['fd00::', 'fd00:0:0:1::1'], last: 'fd00::ffff:ffff:ffff:ffff', lastOK: true },
    { name: 'IPv6 /100', cidr: 'fd00::/100', far: 'fd00::f00:1234', outside: ['fd00::1000:0'], last: 'fd00::fff:ffff', lastOK: true },
  ];
  for (const [i, c] of LARGE.entries()) {
    it(`a ${c.name} range: static addresses anywhere, reserved ones refused`, async () => {
      const ips = newIPAllocator(storage, c.cidr, { key: `/test/large${i}` });
      await ips.allocate(c.far);
      assert.equal(await ips.has(c.far), true);
      await assert.rejects(ips.allocate(c.far), { message: 'provided IP is already allocated' });
      for (const ip of c.outside) await assert.rejects(ips.allocate(ip), { name: 'AllocationError', message: new RegExp(`^the provided IP \\(${ip}\\) is not in the valid range`) });
      if (c.lastOK) await ips.allocate(c.last);
      await ips.release(c.far);
      assert.equal(await ips.has(c.far), false);
    });
  }

  it('dynamic addresses of a large range spread over its upper band', async () => {
    const ips = newIPAllocator(storage, '10.16.0.0/12', { key: '/test/spread' });
    const got = await Promise.all(Array.from({ length: 40 }, () => ips.allocateNext()));
    assert.equal(new Set(got).size, 40);
    // 40 random picks over 2^20 addresses: some lie past the first 2^16 (10.17.0.0 and up)
    assert.ok(got.some((ip) => Number(ip.split('.')[1]) > 16), got.join(' '));
    // none in the lower band (the first 256 addresses), none reserved
    assert.ok(got.every((ip) => !/^10\.16\.0\.\d+$/.test(ip) && ip !== '10.31.255.255'), got.join(' '));
  });

  it('a full large range is full, a freed address is found again wherever it is', async () => {
    // a fixed scan start: the search walks from the band's first address over the taken ones
    const ips = newIPAllocator(storage, 'fd00::/64', { key: '/test/full6', random: first });
    assert.equal(await ips.allocateNext(), 'fd00::101');
    assert.equal(await ips.allocateNext(), 'fd00::102');
    await ips.allocate('fd00::103');
    assert.equal(await ips.allocateNext(), 'fd00::104');
    const small = newIPAllocator(storage, '10.9.0.0/27', { key: '/test/full4', random: first });
    const all = [];
    for (let k = 0; k < 29; k++) all.push(await small.allocateNext());
    await assert.rejects(small.allocateNext(), { message: 'range is full' });
    await small.release('10.9.0.3');
    assert.equal(await small.allocateNext(), '10.9.0.3');
  });

  it('an IPv6 range shorter than /64 allocates nothing, as kube refuses its allocator', async () => {
    const ips = newIPAllocator(storage, 'fd00::/48', { key: '/test/short6' });
    await assert.rejects(ips.allocateNext(), { message: 'range is full' });
    await assert.rejects(ips.allocate('fd00::5'), { message: /^the provided IP \(fd00::5\) is not in the valid range/ });
    await assert.rejects(ips.allocate('fd00::5', true), { message: 'allocator not ready' });
    await assert.rejects(ips.allocateNext(true), { message: 'allocator not ready' });
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

describe('sorted offset set', () => {
  const cases: readonly { name: string; taken: readonly bigint[]; lo: bigint; hi: bigint; start: bigint; want: bigint | undefined }[] = [
    { name: 'the start itself', taken: [], lo: 0n, hi: 9n, start: 4n, want: 4n },
    { name: 'past a run of taken offsets', taken: [4n, 5n, 6n], lo: 0n, hi: 9n, start: 4n, want: 7n },
    { name: 'wraps to the band start', taken: [8n, 9n], lo: 2n, hi: 9n, start: 8n, want: 2n },
    { name: 'wraps past taken ones', taken: [2n, 3n, 8n, 9n], lo: 2n, hi: 9n, start: 8n, want: 4n },
    { name: 'full band', taken: [2n, 3n, 4n], lo: 2n, hi: 4n, start: 3n, want: undefined },
    { name: 'offsets outside the band do not count', taken: [1n, 5n], lo: 2n, hi: 4n, start: 2n, want: 2n },
    { name: 'past 2^64', taken: [2n ** 64n], lo: 0n, hi: 2n ** 65n, start: 2n ** 64n, want: 2n ** 64n + 1n },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = new SortedSet();
      for (const t of [...c.taken].reverse()) s.set(t);
      assert.deepEqual(s.sorted, [...c.taken]);
      assert.equal(s.firstFree(c.lo, c.hi, c.start), c.want);
    });
  }
  it('set, clear and count', () => {
    const s = new SortedSet();
    s.set(5n); s.set(5n); s.set(1n);
    assert.equal(s.count(), 2n);
    s.clear(5n); s.clear(7n);
    assert.deepEqual(s.sorted, [1n]);
    assert.equal(s.has(1n), true);
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
