// The allocated offsets of a service IP range, kept at one storage key either as the bitmap of a
// small range (RangeAllocation, unchanged from earlier releases) or, for a range too large for a
// bitmap (kube v1.36 takes service ranges of any size), as the sorted list of the allocated
// offsets: its size follows the number of allocations, never the size of the range.
// No Go counterpart: kube keeps one IPAddress object per address and scans them.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { Interface as Storage } from '../../../storage/interfaces.ts';
import { Bitmap, updateBitmap } from './bitmap.ts';

/** A set of offsets in [0, size). */
export interface OffsetSet {
  has(i: bigint): boolean;
  set(i: bigint): void;
  clear(i: bigint): void;
  count(): bigint;
  /** The first offset in [lo, hi] not in the set, from `start` on and wrapping around to lo. */
  firstFree(lo: bigint, hi: bigint, start: bigint): bigint | undefined;
}

/** Ranges of at most this many addresses keep a bitmap (2^16: an IPv4 /16). */
export const MAX_BITMAP = 65536n;

class BitmapSet implements OffsetSet {
  constructor(private readonly b: Bitmap) {}
  has(i: bigint): boolean { return this.b.has(Number(i)); }
  set(i: bigint): void { this.b.set(Number(i)); }
  clear(i: bigint): void { this.b.clear(Number(i)); }
  count(): bigint { return BigInt(this.b.count()); }
  firstFree(lo: bigint, hi: bigint, start: bigint): bigint | undefined {
    const from = Number(lo);
    const n = Number(hi - lo) + 1;
    const s = Number(start - lo);
    for (let k = 0; k < n; k++) {
      const i = from + ((s + k) % n);
      if (!this.b.has(i)) return BigInt(i);
    }
    return undefined;
  }
}

/** A sorted array of offsets; lookups are binary searches. */
export class SortedSet implements OffsetSet {
  constructor(readonly sorted: bigint[] = []) {}
  /** The index of the first element >= i. */
  private lowerBound(i: bigint): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.sorted[mid] ?? 0n) < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  has(i: bigint): boolean { return this.sorted[this.lowerBound(i)] === i; }
  set(i: bigint): void {
    const at = this.lowerBound(i);
    if (this.sorted[at] !== i) this.sorted.splice(at, 0, i);
  }
  clear(i: bigint): void {
    const at = this.lowerBound(i);
    if (this.sorted[at] === i) this.sorted.splice(at, 1);
  }
  count(): bigint { return BigInt(this.sorted.length); }
  /** Walks the run of taken offsets from `from`: the first gap, or undefined past `limit`. */
  private gapFrom(from: bigint, limit: bigint): bigint | undefined {
    let idx = this.lowerBound(from);
    let c = from;
    while (c <= limit && this.sorted[idx] === c) { idx++; c++; }
    return c <= limit ? c : undefined;
  }
  firstFree(lo: bigint, hi: bigint, start: bigint): bigint | undefined {
    return this.gapFrom(start, hi) ?? (start > lo ? this.gapFrom(lo, start - 1n) : undefined);
  }
}

/** The stored shape of a sparse range: the range and its allocated offsets (decimal, ascending). */
interface SparseAllocation extends KubeObject {
  range: string;
  offsets: string[];
}

const isSparse = (o: KubeObject | undefined): o is SparseAllocation =>
  o !== undefined && typeof (o as Partial<SparseAllocation>).range === 'string' && Array.isArray((o as Partial<SparseAllocation>).offsets);

const decode = (current: KubeObject | undefined, range: string): SortedSet =>
  new SortedSet(isSparse(current) && current.range === range ? current.offsets.map((s) => BigInt(s)) : []);

/**
 * Reads the set of `range` at `key`, lets `mutate` change it, and (with `write`) stores it with
 * compare-and-swap, so servers sharing storage never hand out one address twice. A stored set of
 * another range is started afresh, as the bitmap is.
 */
export async function updateOffsets<R>(storage: Storage, key: string, range: string, size: bigint,
  mutate: (s: OffsetSet) => R, write = true): Promise<R> {
  if (size <= MAX_BITMAP) return updateBitmap(storage, key, range, Number(size), (b) => mutate(new BitmapSet(b)), write);
  if (!write) return mutate(decode(await storage.get(key, { ignoreNotFound: true }), range));
  let result: R | undefined;
  await storage.guaranteedUpdate(key, {
    ignoreNotFound: true,
    tryUpdate: (current) => {
      const set = decode(current, range);
      result = mutate(set);
      const next: SparseAllocation = {
        apiVersion: 'v1', kind: 'RangeAllocation',
        metadata: current === undefined ? { name: '', creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') } : { ...current.metadata, name: '' },
        range, offsets: set.sorted.map(String),
      };
      return next;
    },
  });
  return result as R;
}
