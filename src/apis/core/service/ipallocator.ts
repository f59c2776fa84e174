// Service cluster IPs from a service CIDR of any size (registry/core/service/ipallocator), the
// allocated ones kept at one key (offset-set.ts). As kube: the network address and the IPv4
// broadcast address are never handed out (IPv6 keeps its last address), and dynamic allocation
// starts at a random address of the upper band, falling back to the lower band (KEP-3070). The
// first address (10.0.0.1 in 10.0.0.0/24) is left for the `kubernetes` service.
// Counterpart of pkg/registry/core/service/ipallocator.
import type { Interface as Storage } from '../../../storage/interfaces.ts';
import { bigIntToIP, formatCIDR, formatIP, ipToBigInt, parseCIDRSloppy, parseIPSloppy, type ParsedCIDR } from '../../../apimachinery/validation/ip.ts';
import { randomBytes } from 'node:crypto';
import { AllocationError } from './bitmap.ts';
import { updateOffsets, type OffsetSet } from './offset-set.ts';

export const SERVICE_IPS_KEY = '/registry/ranges/serviceips';

export const ERR_IP_FULL = 'range is full';
export const ERR_IP_ALLOCATED = 'provided IP is already allocated';
export const ERR_NOT_READY = 'allocator not ready';

export interface IPAllocator {
  /** The range, e.g. "10.0.0.0/24". */
  readonly cidr: string;
  readonly family: 'IPv4' | 'IPv6';
  /** Rejects with AllocationError 'Allocated', 'NotInRange' or 'NotReady'. With dryRun nothing is written. */
  allocate(ip: string, dryRun?: boolean): Promise<void>;
  /** A free address; rejects with AllocationError 'Full'. A dry run answers the network address. */
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
 * The first allocatable address and how many there are: every address of the CIDR but the
 * network one, and for IPv4 the broadcast one too.
 */
function rangeOf(cidr: ParsedCIDR): { base: bigint; size: bigint; hostBits: number } {
  const hostBits = cidr.network.bytes.length * 8 - cidr.prefixLength;
  const size = (1n << BigInt(hostBits)) - (cidr.network.v4 ? 2n : 1n);
  return { base: ipToBigInt(cidr.network) + 1n, size: size < 0n ? 0n : size, hostBits };
}

/**
 * kube's lower band (calculateRangeOffset): none for 16 addresses or fewer, else 1/16 of the CIDR
 * (its full size, network and broadcast included) held between 16 and 256 addresses.
 */
function lowerBandOf(hostBits: number): bigint {
  const cidrSize = 1n << BigInt(hostBits);
  if (cidrSize <= 16n) return 0n;
  const band = cidrSize / 16n;
  return band < 16n ? 16n : band > 256n ? 256n : band;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A uniform-enough draw in [0, n) for ranges past 2^53 (IPv6 /64 and wider). */
const defaultBigRandom = (n: bigint): bigint => BigInt(`0x${randomBytes(16).toString('hex')}`) % n;

export function newIPAllocator(storage: Storage, cidrText: string, opts: IPAllocatorOptions = {}): IPAllocator {
  const cidr = parseCIDRSloppy(cidrText);
  if (cidr === undefined) throw new Error(`invalid service CIDR ${cidrText}`);
  const range = formatCIDR(cidr);
  const key = opts.key ?? SERVICE_IPS_KEY;
  // kube's allocator refuses an IPv6 prefix shorter than /64 (the range is Ready in the default
  // ServiceCIDR nonetheless): nothing is ever allocated from it, and its dry runs are not ready.
  const unusable = !cidr.network.v4 && cidr.prefixLength < 64;
  const { base, size: fullSize, hostBits } = rangeOf(cidr);
  const size = unusable ? 0n : fullSize;
  const random = opts.random ?? ((n: number) => Math.floor(Math.random() * n));
  const draw = (n: bigint): bigint => {
    if (n <= MAX_SAFE) return BigInt(random(Number(n)));
    return opts.random !== undefined ? BigInt(opts.random(Number.MAX_SAFE_INTEGER)) % n : defaultBigRandom(n);
  };
  const v4 = cidr.network.v4;
  // Offset 0 is the kubernetes service's address: never given out dynamically.
  const lowerBand = unusable ? 0n : lowerBandOf(hostBits);
  const upperFrom = lowerBand > 0n ? lowerBand : 1n;
  const notInRange = (ip: string): AllocationError => new AllocationError('NotInRange',
    `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${range}`);
  const update = <R>(mutate: (s: OffsetSet) => R, write = true): Promise<R> => updateOffsets(storage, key, range, size, mutate, write);

  const offsetOf = (ip: string): bigint | undefined => {
    const parsed = parseIPSloppy(ip);
    if (parsed === undefined || parsed.v4 !== v4) return undefined;
    const off = ipToBigInt(parsed) - base;
    return off >= 0n && off < size ? off : undefined;
  };
  const ipAt = (off: bigint): string => formatIP(bigIntToIP(base + off, v4));
  /** A free offset of [lo, hi], the scan starting at a random one; undefined when all are taken. */
  const scan = (s: OffsetSet, lo: bigint, hi: bigint): bigint | undefined =>
    hi < lo ? undefined : s.firstFree(lo, hi, lo + draw(hi - lo + 1n));

  return {
    cidr: range,
    family: v4 ? 'IPv4' : 'IPv6',
    async allocate(ip, dryRun = false) {
      if (unusable && dryRun) throw new AllocationError('NotReady', ERR_NOT_READY);
      const off = offsetOf(ip);
      if (off === undefined) throw notInRange(ip);
      await update((s) => {
        if (s.has(off)) throw new AllocationError('Allocated', ERR_IP_ALLOCATED);
        s.set(off);
      }, !dryRun);
    },
    async allocateNext(dryRun = false) {
      // kube's dry-run allocator does not look for a free address: it answers the network one
      if (dryRun && unusable) throw new AllocationError('NotReady', ERR_NOT_READY);
      if (dryRun) return formatIP(cidr.network);
      const off = await update((s) => {
        const found = scan(s, upperFrom, size - 1n) ?? scan(s, 1n, upperFrom - 1n);
        if (found === undefined) throw new AllocationError('Full', ERR_IP_FULL);
        s.set(found);
        return found;
      });
      return ipAt(off);
    },
    async release(ip) {
      const off = offsetOf(ip);
      if (off === undefined) return;
      await update((s) => { s.clear(off); });
    },
    async has(ip) {
      const off = offsetOf(ip);
      if (off === undefined) return false;
      return update((s) => s.has(off), false);
    },
    async free() {
      return update((s) => Number(size - s.count()), false);
    },
  };
}
