// The baseline of the etcd figures: etcd's own throughput and latency through kapi's etcd gRPC
// client (storage/etcd3), with the values kapi stored. Writes are the single-Txn requests kapi's
// store sends (create: put if the key is absent; update: put if the mod revision is unchanged), on
// keys of the bench's own under RAW_ROOT; lists read kapi's own keys, so both sides list the same
// data.
// No Go counterpart: the bench.
import { performance } from 'node:perf_hooks';
import type { Backend, BackendEvent } from '../storage/backend.ts';
import type { Baseline } from './baseline.ts';
import type { WatchProbe } from './phases.ts';
import { runLoad } from './load.ts';

/** Where the raw requests write, away from kapi's prefix. */
export const RAW_ROOT = '/kapi-bench-raw';
const WATCH_TIMEOUT_MS = 30_000;

/** kapi's key prefix of the ConfigMaps of `ns`, e.g. /registry/configmaps/default/. */
export function configMapPrefix(etcdPrefix: string, ns: string): string {
  return `${etcdPrefix.replace(/\/+$/, '')}/configmaps/${ns}/`;
}

/** The names of `keys` owned by each of `workers` workers (every workers-th key), so updates do not conflict. */
export function partition<T>(keys: readonly T[], workers: number): T[][] {
  return Array.from({ length: workers }, (_, w) => keys.filter((_k, i) => i % workers === w));
}

interface RawSet {
  /** Key → mod revision, in creation order. */
  readonly rev: Map<string, number>;
  next: number;
}

/**
 * `etcdPrefix` is kapi's --etcd-prefix. The backend must have no key prefix of its own, since it
 * reads kapi's keys.
 */
export function etcdBaseline(raw: Backend, etcdPrefix: string): Baseline {
  const sets = new Map<string, RawSet>();
  const setOf = (ns: string): RawSet => {
    let set = sets.get(ns);
    if (set === undefined) {
      set = { rev: new Map(), next: 0 };
      sets.set(ns, set);
    }
    return set;
  };
  /** The value kapi stored for the first ConfigMap of `ns` (the one kapi's first worker wrote last). */
  const storedValue = async (ns: string): Promise<string> => {
    const res = await raw.range(configMapPrefix(etcdPrefix, ns), { prefix: true, limit: 1 });
    const kv = res.kvs[0];
    if (kv === undefined) throw new Error(`raw etcd: kapi stored no ConfigMap under ${configMapPrefix(etcdPrefix, ns)}`);
    return kv.value;
  };
  const rawKey = (ns: string, n: number): string => `${RAW_ROOT}/configmaps/${ns}/cm-${n}`;

  return {
    label: 'raw etcd',

    async create(ns, budget) {
      const value = await storedValue(ns);
      const set = setOf(ns);
      const result = await runLoad({
        ...budget,
        op: async () => {
          const key = rawKey(ns, set.next++);
          const res = await raw.create(key, value);
          if (!res.succeeded) throw new Error(`raw etcd: create ${key}: key exists`);
          set.rev.set(key, res.revision);
        },
      });
      return { ...result, responseBytes: Buffer.byteLength(value) };
    },

    async get(ns, budget) {
      const keys = [...setOf(ns).rev.keys()];
      if (keys.length === 0) throw new Error('raw etcd: get before create');
      let bytes = 0;
      const result = await runLoad({
        ...budget,
        op: async (_w, seq) => {
          const key = keys[(seq * 7919) % keys.length]!;
          const kv = (await raw.range(key)).kvs[0];
          if (kv === undefined) throw new Error(`raw etcd: ${key} not found`);
          bytes = kv.value.length; // a byte string: one char per byte
        },
      });
      return { ...result, responseBytes: bytes };
    },

    async update(ns, budget) {
      const value = await storedValue(ns);
      const set = setOf(ns);
      const owned = partition([...set.rev.keys()], budget.workers);
      if (owned.some((o) => o.length === 0)) throw new Error('raw etcd: fewer keys than workers');
      const cursor = new Array<number>(budget.workers).fill(0);
      const result = await runLoad({
        ...budget,
        op: async (w) => {
          const mine = owned[w]!;
          const key = mine[cursor[w]! % mine.length]!;
          cursor[w] = cursor[w]! + 1;
          const res = await raw.update(key, value, set.rev.get(key) ?? 0);
          if (!res.succeeded) throw new Error(`raw etcd: update ${key}: mod revision changed`);
          set.rev.set(key, res.revision);
        },
      });
      return { ...result, responseBytes: Buffer.byteLength(value) };
    },

    async list(ns, items) {
      const start = performance.now();
      const res = await raw.range(configMapPrefix(etcdPrefix, ns), { prefix: true });
      const ms = performance.now() - start;
      if (res.kvs.length !== items) throw new Error(`raw etcd: listed ${res.kvs.length} keys of ${ns}, want ${items}`);
      return ms;
    },

    openWatchProbe: async (ns) => openRawWatchProbe(raw, `${RAW_ROOT}/watch/${ns}/`, await storedValue(ns)),
  };
}

interface Waiter {
  resolve(at: number): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** A watch on `prefix` from the current revision; write(name) creates prefix+name with `value`. */
async function openRawWatchProbe(raw: Backend, prefix: string, value: string): Promise<WatchProbe> {
  const arrived = new Map<string, number>();
  const waiters = new Map<string, Waiter>();
  let failure: Error | undefined;
  const onEvent = (e: BackendEvent, at: number): void => {
    if (e.type !== 'put') return;
    const w = waiters.get(e.kv.key);
    if (w === undefined) {
      arrived.set(e.kv.key, at);
      return;
    }
    waiters.delete(e.kv.key);
    clearTimeout(w.timer);
    w.resolve(at);
  };
  const fail = (err: Error): void => {
    failure ??= err;
    for (const w of waiters.values()) {
      clearTimeout(w.timer);
      w.reject(err);
    }
    waiters.clear();
  };
  const arrival = (key: string): Promise<number> => {
    const at = arrived.get(key);
    if (at !== undefined) {
      arrived.delete(key);
      return Promise.resolve(at);
    }
    if (failure !== undefined) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(key);
        reject(new Error(`raw etcd: no watch event for ${key} within ${WATCH_TIMEOUT_MS} ms`));
      }, WATCH_TIMEOUT_MS);
      waiters.set(key, { resolve, reject, timer });
    });
  };
  const watcher = await raw.watch(prefix, { prefix: true, fromRevision: await raw.currentRevision() }, {
    onEvents: (events) => {
      const at = performance.now();
      for (const e of events) onEvent(e, at);
    },
    onProgress: () => {},
    onError: fail,
  });
  return {
    async write(name) {
      const key = prefix + name;
      const start = performance.now();
      const arrived = arrival(key);
      arrived.catch(() => undefined); // awaited below; this only stops an early rejection going unhandled
      const res = await raw.create(key, value);
      if (!res.succeeded) throw new Error(`raw etcd: create ${key}: key exists`);
      return (await arrived) - start;
    },
    eventBytes: () => Buffer.byteLength(value),
    close: () => {
      watcher.cancel();
      fail(new Error('watch closed'));
    },
  };
}
