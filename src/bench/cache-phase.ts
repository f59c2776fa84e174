// The watch cache at scale, in this process against the storage it decorates (no HTTP: the HTTP
// list figures are list-1k/list-10k): lists of 10k and 100k ConfigMaps from the cache and from
// storage, whole and in pages of 500, and the heap the cache holds per 10k objects against their
// encoded (stored JSON) size, with and without the encode-once JSON a served list keeps per item.
// Baseline of each list figure: the same list read from storage, in the same run.
// No Go counterpart: the bench.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Backend } from '../storage/backend.ts';
import { Cacher } from '../storage/cacher/cacher.ts';
import { openEtcdBackend } from '../storage/etcd3/etcd3-backend.ts';
import { EVERYTHING, type Interface, type ListOptions } from '../storage/interfaces.ts';
import { jsonCodec } from '../storage/json-codec.ts';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { newStore } from '../storage/store.ts';
import { startBenchEtcd } from './etcd.ts';
import { configMapBody } from './phases.ts';
import { figure, type Figure, type FigurePrefix } from './report.ts';
import { median } from './stats.ts';

const PREFIX = '/registry/configmaps';
const SIZES = [10_000, 100_000] as const;
const PAGE = 500;
const RUNS = 5;
const FILL_CONCURRENCY = 64;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Fills namespace `ns` with n ConfigMaps straight into the backend; returns their encoded bytes. */
async function fill(backend: Backend, ns: string, n: number): Promise<number> {
  let bytes = 0;
  let next = 0;
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, async () => {
    for (let i = next++; i < n; i = next++) {
      const name = `cm-${String(i).padStart(6, '0')}`;
      const doc = JSON.parse(configMapBody(ns, name, i)) as Record<string, unknown>;
      const value = JSON.stringify({ ...doc, metadata: { name, namespace: ns, uid: `uid-${i}`, creationTimestamp: '2026-01-01T00:00:00Z' } });
      bytes += Buffer.byteLength(value);
      await backend.create(`${PREFIX}/${ns}/${name}`, value);
    }
  }));
  return bytes;
}

/** ms of one whole list, or of every page of it. */
async function listMs(storage: Interface, ns: string, n: number, opts: Partial<ListOptions>, paged: boolean): Promise<number> {
  const start = performance.now();
  let cont: string | undefined;
  let items = 0;
  do {
    const r = await storage.getList(`${PREFIX}/${ns}`, {
      predicate: EVERYTHING, recursive: true, ...opts,
      ...(paged ? { limit: PAGE, ...(cont === undefined ? {} : { continue: cont }) } : {}),
    });
    items += r.items.length;
    cont = paged ? r.continue : undefined;
    // A continue token carries its revision: the first page's resourceVersion goes no further.
    if (paged && cont !== undefined) opts = {};
  } while (cont !== undefined && cont !== '');
  if (items !== n) throw new Error(`list of ${ns}: ${items} items, want ${n}`);
  return performance.now() - start;
}

async function sampled(fn: () => Promise<number>): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await fn());
  return median(samples);
}

/** The cache phase on one backend. */
async function onBackend(backend: Backend, prefix: FigurePrefix, log: (m: string) => void, note: (m: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  const storage = newStore(backend, jsonCodec);
  const encoded = new Map<number, number>();
  for (const n of SIZES) {
    log(`${prefix}cache: filling ${n} configmaps…`);
    encoded.set(n, await fill(backend, `scale-${n}`, n));
  }
  const before = heapUsed();
  const cacher = new Cacher({ storage, backend, codec: jsonCodec, resourcePrefix: PREFIX, log });
  try {
    await cacher.ready();
    const held = heapUsed() - before;
    const total = SIZES.reduce((a, n) => a + n, 0);
    const bytes = [...encoded.values()].reduce((a, b) => a + b, 0);
    // What a served list adds per item: its JSON, kept for the next list (encode once).
    const json: string[] = [];
    const r = await cacher.getList(PREFIX, { predicate: EVERYTHING, recursive: true, resourceVersion: '0' });
    const beforeJSON = heapUsed();
    for (const o of r.items) json.push(JSON.stringify(o));
    const jsonHeld = heapUsed() - beforeJSON;
    const per10k = (v: number): number => (v / total) * 10_000;
    figures.push(figure(`${prefix}cache-heap-10k`, 'MiB', per10k(held) / 2 ** 20, per10k(bytes) / 2 ** 20));
    note(`${prefix}cache-heap-10k: ${total} cached ConfigMaps hold ${(per10k(held) / 2 ** 20).toFixed(1)} MiB of heap per 10k ` +
      `(${(held / bytes).toFixed(2)}× their ${(per10k(bytes) / 2 ** 20).toFixed(1)} MiB stored JSON); the encode-once JSON of a ` +
      `served list adds ${(per10k(jsonHeld) / 2 ** 20).toFixed(1)} MiB per 10k`);
    json.length = 0;
    for (const n of SIZES) {
      const ns = `scale-${n}`;
      for (const paged of [false, true]) {
        const label = `${prefix}cache-list-${n === 10_000 ? '10k' : '100k'}${paged ? '-paged' : ''}` as const;
        log(`${label}…`);
        const fromCache = await sampled(() => listMs(cacher, ns, n, { resourceVersion: '0' }, paged));
        const fromStorage = await sampled(() => listMs(storage, ns, n, {}, paged));
        figures.push(figure(label, 'ms', fromCache, fromStorage));
        note(`${label}: median of ${RUNS}: from the cache ${fromCache.toFixed(1)} ms, from storage ${fromStorage.toFixed(1)} ms` +
          `${paged ? ` (pages of ${PAGE})` : ''}`);
      }
    }
  } finally {
    cacher.stop();
  }
  return figures;
}

/** The cache phase on the embedded store, then on a fresh etcd (each when asked for). */
export async function measureCache(backends: readonly string[], log: (m: string) => void, note: (m: string) => void): Promise<Figure[]> {
  const figures: Figure[] = [];
  if (backends.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-bench-cache-'));
    const sqlite = await openSqliteBackend({ path: join(dir, 'state.db') });
    try {
      figures.push(...await onBackend(sqlite, '', log, note));
    } finally {
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!backends.includes('etcd')) return figures;
  const etcd = await startBenchEtcd();
  try {
    const backend = await openEtcdBackend({ endpoints: [etcd.endpoint], compactionIntervalMs: 0, dialTimeoutMs: 10_000 });
    try {
      figures.push(...await onBackend(backend, 'etcd-', log, note));
    } finally {
      await backend.close();
    }
  } finally {
    await etcd.stop();
  }
  return figures;
}
