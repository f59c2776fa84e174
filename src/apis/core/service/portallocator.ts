// Service node ports from the node port range (registry/core/service/portallocator), stored
// as a bitmap at one key.
// Counterpart of pkg/registry/core/service/portallocator.
import type { Interface as Storage } from '../../../storage/interfaces.ts';
import { AllocationError, updateBitmap } from './bitmap.ts';

const SERVICE_NODE_PORTS_KEY = '/registry/ranges/servicenodeports';
const ERR_PORT_FULL = 'range is full';
export const ERR_PORT_ALLOCATED = 'provided port is already allocated';

export interface PortAllocator {
  /** "30000-32767" */
  readonly range: string;
  readonly base: number;
  readonly size: number;
  /** Rejects with AllocationError 'Allocated' or 'NotInRange'. */
  allocate(port: number, dryRun?: boolean): Promise<void>;
  /** Rejects with AllocationError 'Full'. */
  allocateNext(dryRun?: boolean): Promise<number>;
  release(port: number): Promise<void>;
  has(port: number): Promise<boolean>;
  free(): Promise<number>;
}

export interface PortAllocatorOptions {
  readonly key?: string;
  readonly random?: (n: number) => number;
}

/** Parses "30000-32767" (or "30000+2767"). */
export function parsePortRange(text: string): { base: number; size: number } | undefined {
  const m = /^(\d+)(?:([-+])(\d+))?$/.exec(text.trim());
  if (m === null) return undefined;
  const base = Number(m[1]);
  if (m[2] === undefined) return { base, size: 1 };
  const other = Number(m[3]);
  const size = m[2] === '+' ? other + 1 : other - base + 1;
  return size > 0 && base > 0 && base + size - 1 <= 65535 ? { base, size } : undefined;
}

export function newPortAllocator(storage: Storage, rangeText = '30000-32767', opts: PortAllocatorOptions = {}): PortAllocator {
  const parsed = parsePortRange(rangeText);
  if (parsed === undefined) throw new Error(`invalid node port range ${rangeText}`);
  const { base, size } = parsed;
  const range = `${base}-${base + size - 1}`;
  const key = opts.key ?? SERVICE_NODE_PORTS_KEY;
  const random = opts.random ?? ((n: number) => Math.floor(Math.random() * n));
  const offsetOf = (port: number): number | undefined => (Number.isInteger(port) && port >= base && port < base + size ? port - base : undefined);
  // As for IPs, dynamic allocation prefers the upper band (KEP-3668).
  const lowerBand = Math.min(Math.max(16, Math.floor(size / 32)), 128, size);

  return {
    range, base, size,
    async allocate(port, dryRun = false) {
      const off = offsetOf(port);
      if (off === undefined) {
        throw new AllocationError('NotInRange', `provided port is not in the valid range. The range of valid ports is ${range}`);
      }
      await updateBitmap(storage, key, range, size, (b) => {
        if (b.has(off)) throw new AllocationError('Allocated', ERR_PORT_ALLOCATED);
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
        const found = scan(lowerBand, size) ?? scan(0, lowerBand);
        if (found === undefined) throw new AllocationError('Full', ERR_PORT_FULL);
        b.set(found);
        return found;
      }, !dryRun);
      return base + off;
    },
    async release(port) {
      const off = offsetOf(port);
      if (off === undefined) return;
      await updateBitmap(storage, key, range, size, (b) => { b.clear(off); });
    },
    async has(port) {
      const off = offsetOf(port);
      if (off === undefined) return false;
      return updateBitmap(storage, key, range, size, (b) => b.has(off), false);
    },
    async free() {
      return updateBitmap(storage, key, range, size, (b) => size - b.count(), false);
    },
  };
}
