// The allocation bitmap of a RangeAllocation, persisted through the storage contract so that
// several servers sharing storage never hand out the same value (registry/core/service/allocator).
// Counterpart of pkg/registry/core/service/allocator.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { Interface as Storage } from '../../../storage/interfaces.ts';

/** The stored object (core's RangeAllocation shape): the range and a base64 bitmap. */
export interface RangeAllocation extends KubeObject {
  range: string;
  /** base64 of the bitmap as a big-endian integer, bit i set when offset i is allocated. */
  data: string;
}

const isRangeAllocation = (o: KubeObject | undefined): o is RangeAllocation =>
  o !== undefined && typeof (o as Partial<RangeAllocation>).range === 'string' && typeof (o as Partial<RangeAllocation>).data === 'string';

/** Bits in little-endian byte order (bit i in byte i>>3). */
export class Bitmap {
  readonly bytes: Uint8Array;
  constructor(readonly size: number, bytes?: Uint8Array) {
    this.bytes = new Uint8Array(Math.ceil(size / 8));
    if (bytes !== undefined) this.bytes.set(bytes.subarray(0, this.bytes.length));
  }
  has(i: number): boolean { return ((this.bytes[i >> 3] ?? 0) & (1 << (i & 7))) !== 0; }
  set(i: number): void { this.bytes[i >> 3] = (this.bytes[i >> 3] ?? 0) | (1 << (i & 7)); }
  clear(i: number): void { this.bytes[i >> 3] = (this.bytes[i >> 3] ?? 0) & ~(1 << (i & 7)); }
  count(): number {
    let n = 0;
    for (const b of this.bytes) { let x = b; while (x !== 0) { x &= x - 1; n++; } }
    return n;
  }
  /** Go's big.Int.Bytes(): big-endian, no leading zero bytes. */
  encode(): string {
    const be = Uint8Array.from(this.bytes).reverse();
    let start = 0;
    while (start < be.length && be[start] === 0) start++;
    return Buffer.from(be.subarray(start)).toString('base64');
  }
  static decode(size: number, data: string): Bitmap {
    const be = Buffer.from(data, 'base64');
    const le = Uint8Array.from(be).reverse();
    return new Bitmap(size, le);
  }
}

/** Thrown by the mutate function of an allocation; carries a kube allocator error text. */
export class AllocationError extends Error {
  override readonly name = 'AllocationError';
  constructor(readonly kind: 'Full' | 'Allocated' | 'NotInRange' | 'NotReady', message: string) { super(message); }
}

/**
 * Reads the bitmap at `key`, lets `mutate` change it, and writes it back with compare-and-swap
 * (guaranteedUpdate retries on a concurrent writer). A stored bitmap of another range is
 * started afresh, as kube's repair loop would rebuild it.
 */
export async function updateBitmap<R>(storage: Storage, key: string, range: string, size: number,
  mutate: (b: Bitmap) => R, write = true): Promise<R> {
  let result: R | undefined;
  if (!write) {
    const current = await storage.get(key, { ignoreNotFound: true });
    const b = isRangeAllocation(current) && current.range === range ? Bitmap.decode(size, current.data) : new Bitmap(size);
    return mutate(b);
  }
  await storage.guaranteedUpdate(key, {
    ignoreNotFound: true,
    tryUpdate: (current) => {
      const b = isRangeAllocation(current) && current.range === range ? Bitmap.decode(size, current.data) : new Bitmap(size);
      result = mutate(b);
      const next: RangeAllocation = {
        apiVersion: 'v1', kind: 'RangeAllocation',
        metadata: { ...(current?.metadata ?? {}), name: '' },
        range, data: b.encode(),
      };
      if (current === undefined) next.metadata = { name: '', creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') };
      return next;
    },
  });
  return result as R;
}
