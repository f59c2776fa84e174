// The measurements. Each function runs unchanged against kapi and against the baseline; only the
// Routes differ.
// No Go counterpart: the bench.
import { performance } from 'node:perf_hooks';
import { sendOk, type HttpTarget } from './http-client.ts';
import { runLoad, type LoadResult } from './load.ts';
import type { Routes } from './routes.ts';
import { openEventStream } from './watch-client.ts';

const PAYLOAD_BYTES = 1024;
const FILLER = Array.from({ length: PAYLOAD_BYTES }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789'[i % 36]).join('');

/** A ConfigMap with ~1 KiB of data; `generation` varies the data so every update changes it. */
export function configMapBody(ns: string, name: string, generation: number, resourceVersion?: string): string {
  const stamp = String(generation).padStart(10, '0');
  return JSON.stringify({
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name, namespace: ns, ...(resourceVersion === undefined ? {} : { resourceVersion }) },
    data: { payload: stamp + FILLER.slice(stamp.length) },
  });
}

/** metadata.resourceVersion of a JSON response; undefined when absent (the baseline). */
export function resourceVersionOf(body: Buffer): string | undefined {
  const doc: unknown = JSON.parse(body.toString('utf8'));
  if (typeof doc !== 'object' || doc === null || !('metadata' in doc)) return undefined;
  const meta = doc.metadata;
  if (typeof meta !== 'object' || meta === null || !('resourceVersion' in meta)) return undefined;
  return typeof meta.resourceVersion === 'string' ? meta.resourceVersion : undefined;
}

/** Objects created so far in one namespace: name → last known resourceVersion, in creation order. */
export interface ObjectSet {
  readonly ns: string;
  readonly rv: Map<string, string>;
  next: number;
}

export function newObjectSet(ns: string): ObjectSet {
  return { ns, rv: new Map(), next: 0 };
}

export interface Budget {
  readonly workers: number;
  readonly durationMs: number;
  readonly maxOps: number;
}

export interface Throughput extends LoadResult {
  /** Size of the last response body. */
  readonly responseBytes: number;
}

/** Creates up to budget.maxOps ConfigMaps named <prefix><n>, recording their resourceVersions. */
export async function createObjects(t: HttpTarget, r: Routes, set: ObjectSet, prefix: string,
  budget: Budget): Promise<Throughput> {
  let responseBytes = 0;
  const result = await runLoad({
    ...budget,
    op: async () => {
      const name = `${prefix}${set.next++}`;
      const res = await sendOk(t, 'POST', r.create(set.ns), configMapBody(set.ns, name, 0));
      set.rv.set(name, resourceVersionOf(res.body) ?? '');
      responseBytes = res.body.length;
    },
  });
  return { ...result, responseBytes };
}

/** GETs the set's objects in a scattered order. */
export async function getObjects(t: HttpTarget, r: Routes, set: ObjectSet, budget: Budget): Promise<Throughput> {
  const names = [...set.rv.keys()];
  if (names.length === 0) throw new Error('get: no objects');
  let responseBytes = 0;
  const result = await runLoad({
    ...budget,
    op: async (_w, seq) => {
      const name = names[(seq * 7919) % names.length]!;
      responseBytes = (await sendOk(t, 'GET', r.get(set.ns, name))).body.length;
    },
  });
  return { ...result, responseBytes };
}

/** PUTs with the current resourceVersion; worker w owns every workers-th object, so no conflicts. */
export async function updateObjects(t: HttpTarget, r: Routes, set: ObjectSet, budget: Budget,
  generationStart: number): Promise<Throughput> {
  const names = [...set.rv.keys()];
  const owned = Array.from({ length: budget.workers }, (_, w) => names.filter((_n, i) => i % budget.workers === w));
  if (owned.some((o) => o.length === 0)) throw new Error('update: fewer objects than workers');
  const cursor = new Array<number>(budget.workers).fill(0);
  let generation = generationStart;
  let responseBytes = 0;
  const result = await runLoad({
    ...budget,
    op: async (w) => {
      const mine = owned[w]!;
      const name = mine[cursor[w]! % mine.length]!;
      cursor[w] = cursor[w]! + 1;
      const body = configMapBody(set.ns, name, generation++, set.rv.get(name));
      const res = await sendOk(t, 'PUT', r.update(set.ns, name), body, [200]);
      const rv = resourceVersionOf(res.body);
      if (rv !== undefined) set.rv.set(name, rv);
      responseBytes = res.body.length;
    },
  });
  return { ...result, responseBytes };
}

/** One full LIST of a namespace: its latency in ms and the body. */
export async function listOnce(t: HttpTarget, r: Routes, ns: string): Promise<{ ms: number; body: Buffer }> {
  const start = performance.now();
  const { body } = await sendOk(t, 'GET', r.list(ns), undefined, [200]);
  return { ms: performance.now() - start, body };
}

export interface WatchProbe {
  /** Creates `name` and resolves with the ms from sending the write to its event reaching the watcher. */
  write(name: string): Promise<number>;
  /** Size of the last event line. */
  eventBytes(): number;
  close(): void;
}

/**
 * The resourceVersion of a list of `ns` (undefined from the bare server). Watches start from it, as
 * informers' do: kube-apiserver answers a watch without one from its watch cache only once the
 * cache caught up with etcd, which on etcd before 3.4.31 (no progress requests) may take until the
 * next write to the resource, and it gives up after 3 s ("Too large resource version").
 */
export async function listResourceVersion(t: HttpTarget, r: Routes, ns: string): Promise<string | undefined> {
  return resourceVersionOf((await sendOk(t, 'GET', r.list(ns), undefined, [200])).body);
}

/** Opens a watch on the namespace (from a list's resourceVersion) and resolves once it is established. */
export async function openWatchProbe(t: HttpTarget, r: Routes, ns: string): Promise<WatchProbe> {
  const stream = openEventStream(t, r.watch(ns, await listResourceVersion(t, r, ns)));
  try {
    await stream.ready;
  } catch (err) {
    stream.close();
    throw err;
  }
  return {
    async write(name) {
      const start = performance.now();
      const arrival = stream.arrival(name, 30_000);
      arrival.catch(() => undefined); // awaited below; this only stops an early rejection going unhandled
      await sendOk(t, 'POST', r.watchWrite(ns, name), configMapBody(ns, name, 0));
      return (await arrival) - start;
    },
    eventBytes: () => stream.lastEventBytes(),
    close: () => stream.close(),
  };
}
