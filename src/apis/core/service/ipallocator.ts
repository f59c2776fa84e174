// Service cluster IPs from the service CIDR (registry/core/service/ipallocator), stored as a
// bitmap at one key. The network and (IPv4) broadcast addresses are never handed out, and the
// first address (10.0.0.1 in 10.0.0.0/24) is left for the `kubernetes` service.
// Counterpart of pkg/registry/core/service/ipallocator.
import type { Interface as Storage } from '../../../storage/interfaces.ts';
import { bigIntToIP, formatCIDR, formatIP, ipToBigInt, parseCIDRSloppy, parseIPSloppy, type ParsedCIDR } from '../../../apimachinery/validation/ip.ts';
import { AllocationError, updateBitmap } from './bitmap.ts';

export const SERVICE_IPS_KEY = '/registry/ranges/serviceips';

export const ERR_IP_FULL = 'range is full';
export const ERR_IP_ALLOCATED = 'provided IP is already allocated';

export interface IPAllocator {
  /** The range, e.g. "10.0.0.0/24". */
  readonly cidr: string;
  readonly family: 'IPv4' | 'IPv6';
  /** Rejects with AllocationError 'Allocated' or 'NotInRange'. With dryRun nothing is written. */
  allocate(ip: string, dryRun?: boolean): Promise<void>;
  /** A free address; rejects with AllocationError 'Full'. */
  allocateNext(dryRun?: boolean): Promise<string>;
  /** Frees an address; addresses outside the range are ignored. */
  release(ip: string): Promise<void>;
  has(ip: string): Promise<boolean>;
  /** How many addresses are free. */
  free(): Promise<number>;
}

export interface IPAllocatorOptions {
  readonly key?: string;
  /** Picks the scan start in [0, n) (Math.random by default); tests pass a fixed one. */
  readonly random?: (n: number) => number;
}

/**
 * The bitmap covers at most this many addresses from the start of the range: kube v1.36 takes
 * service ranges of any size (its allocator keeps an IPAddress object per address), a bitmap
 * stored at one key cannot. 2^20 is the largest IPv4 range kube's older bitmap allocator took.
 */
const MAX_BITMAP: Readonly<Record<'v4' | 'v6', number>> = { v4: 2 ** 20 - 2, v6: 65536 };

/** The first offset (from network+1) and the number of allocatable addresses of a CIDR. */
function rangeOf(cidr: ParsedCIDR): { base: bigint; size: number } {
  const bits = cidr.network.bytes.length * 8;
  const hostBits = bits - cidr.prefixLength;
  let size = 2 ** Math.min(hostBits, 52);
  if (cidr.network.v4) size -= 2; // network and broadcast
  else size -= 1; // network (subnet-router anycast)
  size = Math.min(size, MAX_BITMAP[cidr.network.v4 ? 'v4' : 'v6']);
  return { base: ipToBigInt(cidr.network) + 1n, size: Math.max(size, 0) };
}

export function newIPAllocator(storage: Storage, cidrText: string, opts: IPAllocatorOptions = {}): IPAllocator {
  const cidr = parseCIDRSloppy(cidrText);
  if (cidr === undefined) throw new Error(`invalid service CIDR ${cidrText}`);
  const range = formatCIDR(cidr);
  const key = opts.key ?? SERVICE_IPS_KEY;
  const { base, size } = rangeOf(cidr);
  const random = opts.random ?? ((n: number) => Math.floor(Math.random() * n));
  const v4 = cidr.network.v4;
  // Dynamic allocation prefers the upper band, keeping the lower one for static IPs (KEP-3070).
  const lowerBand = Math.min(Math.max(16, Math.floor(size / 16)), 256, size);
  const notInRange = (ip: string): AllocationError => new AllocationError('NotInRange',
    `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${range}`);

  const offsetOf = (ip: string): number | undefined => {
    const parsed = parseIPSloppy(ip);
    if (parsed === undefined || parsed.v4 !== v4) return undefined;
    const off = ipToBigInt(parsed) - base;
    return off >= 0n && off < BigInt(size) ? Number(off) : undefined;
  };
  const ipAt = (off: number): string => formatIP(bigIntToIP(base + BigInt(off), v4));

  return {
    cidr: range,
    family: v4 ? 'IPv4' : 'IPv6',
    async allocate(ip, dryRun = false) {
      const off = offsetOf(ip);
      if (off === undefined) throw notInRange(ip);
      await updateBitmap(storage, key, range, size, (b) => {
        if (b.has(off)) throw new AllocationError('Allocated', ERR_IP_ALLOCATED);
        b.set(off);
      }, !dryRun);
    },
    async allocateNext(dryRun = false) {
      const off = await updateBitmap(storage, key, range, size, (b) => {
        const scan = (from: number, to: number): number | undefined => {
          const n = to - from;
          if (n <= 0) return undefined;
          const start = random(n);
          for (let k = 0; k < n; k++) {
            const i = from + ((start + k) % n);
            if (!b.has(i)) return i;
          }
          return undefined;
        };
        // offset 0 is the kubernetes service's address: never given out dynamically
        const found = scan(lowerBand, size) ?? scan(1, lowerBand);
        if (found === undefined) throw new AllocationError('Full', ERR_IP_FULL);
        b.set(found);
        return found;
      }, !dryRun);
      return ipAt(off);
    },
    async release(ip) {
      const off = offsetOf(ip);
      if (off === undefined) return;
      await updateBitmap(storage, key, range, size, (b) => { b.clear(off); });
    },
    async has(ip) {
      const off = offsetOf(ip);
      if (off === undefined) return false;
      return updateBitmap(storage, key, range, size, (b) => b.has(off), false);
    },
    async free() {
      return updateBitmap(storage, key, range, size, (b) => size - b.count(), false);
    },
  };
}
