// The hostile phase of `npm run bench` (issue 9): for each class of hostile input at the largest
// size kube-apiserver accepts, one request is sent while another client polls /readyz, and the
// figures are the longest event-loop stall inside the server (monitorEventLoopDelay in the server
// process) and the slowest /readyz answer during the request. Baselines: the same two figures on
// the idle server. No thresholds: the figures are for the report.
// No Go counterpart: the bench.
import { performance } from 'node:perf_hooks';
import { MAX_OBJECT_DEPTH } from '../apimachinery/json-depth.ts';
import {
  blobJSON, configMapJSON, configMapWithDeepManagedFields, CR_GROUP, deepObject, labelSelector, manyKeysJSON,
} from '../apimachinery/testing/hostile-bodies.ts';
import type { Child } from './child.ts';
import { closeTarget, newTarget, sendOk, sendRaw, type HttpTarget, type RawSend } from './http-client.ts';
import { figure, type Figure, type HostileClass } from './report.ts';

const NS = 'bench-hostile';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const BLOBS = `/apis/${CR_GROUP}/v1/namespaces/${NS}/blobs`;
/**
 * The nesting of the deep cases, as the hostile corpus's: just under kapi's MAX_OBJECT_DEPTH, so
 * the write is accepted and passes every step (kube accepts 10000 levels; kapi refuses deeper
 * objects than its limit with a 400, which would measure only the refusal).
 */
const BENCH_DEPTH = MAX_OBJECT_DEPTH - 10;
/** A guard, not a figure: a request that freezes the server this long is reported as cut off. */
const GUARD_MS = 180_000;
const IDLE_MS = 2_000;
const LIST_ITEMS = 10_000;

interface HostileCase {
  readonly name: HostileClass;
  readonly setup?: (t: HttpTarget) => Promise<void>;
  readonly request: RawSend;
}

const big = (bytes: number): string => 'x'.repeat(bytes);

function cases(): HostileCase[] {
  const MiB = 1024 * 1024;
  return [
    // kube's request body limit is 3 MiB: such a body is read, decoded and admitted, then refused
    // by etcd's 1.5 MiB request limit (kube's 500) before it is stored.
    { name: 'body-3mib', request: { method: 'POST', path: BLOBS, body: blobJSON('body-3mib', `{"s":"${big(3 * MiB - 400)}"}`) } },
    { name: 'json-patch-10k-ops',
      setup: (t) => create(t, CM, configMapJSON('ops', '{"a":"b"}')),
      request: { method: 'PATCH', path: `${CM}/ops`, contentType: 'application/json-patch+json',
        body: `[${Array.from({ length: 10_000 }, (_, i) => `{"op":"add","path":"/data/k${i}","value":"v"}`).join(',')}]` } },
    // Three copies of a 1 MB value: 3 MB of copies, just under kube's JSONPatchMaxCopyBytes (3 MiB);
    // the 4 MB result is then refused by etcd's request limit, as kube refuses it.
    { name: 'copy-limit',
      setup: (t) => create(t, BLOBS, blobJSON('copy', `{"big":"${big(1_000_000)}"}`)),
      request: { method: 'PATCH', path: `${BLOBS}/copy`, contentType: 'application/json-patch+json',
        body: JSON.stringify([0, 1, 2].map((i) => ({ op: 'copy', from: '/spec/big', path: `/spec/c${i}` }))) } },
    { name: 'deep-create', request: { method: 'POST', path: BLOBS, body: blobJSON('deep', deepObject(BENCH_DEPTH)) } },
    { name: 'deep-merge-patch', request: { method: 'PATCH', path: `${BLOBS}/deep`, contentType: 'application/merge-patch+json',
      body: `{"spec":${deepObject(BENCH_DEPTH, '2')}}` } },
    { name: 'keys-100k', request: { method: 'POST', path: CM, body: configMapJSON('keys', manyKeysJSON(100_000)) } },
    { name: 'managedfields-400', request: { method: 'POST', path: CM, body: configMapWithDeepManagedFields('mf', 400) } },
    // Go's net/http (kube) serves up to 1 MB of request headers.
    { name: 'headers-1mb', request: { method: 'GET', path: `${CM}?limit=1`, headers: { 'x-padding': big(1_000_000) } } },
    { name: 'selector-10k', request: { method: 'GET', path: `${CM}?labelSelector=${labelSelector(10_000)}` } },
    { name: 'list-10k', setup: fillList, request: { method: 'GET', path: `/api/v1/namespaces/${NS}-list/configmaps` } },
  ];
}

async function create(t: HttpTarget, path: string, body: string): Promise<void> {
  await sendOk(t, 'POST', path, body, [201, 409]);
}

/** 10k 1 KiB ConfigMaps in their own namespace, 64 at a time. */
async function fillList(t: HttpTarget): Promise<void> {
  await create(t, '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${NS}-list` } }));
  const path = `/api/v1/namespaces/${NS}-list/configmaps`;
  for (let i = 0; i < LIST_ITEMS; i += 64) {
    await Promise.all(Array.from({ length: Math.min(64, LIST_ITEMS - i) }, (_, j) =>
      create(t, path, configMapJSON(`cm-${i + j}`, `{"payload":"${big(1000)}"}`))));
  }
}

async function setUp(t: HttpTarget): Promise<void> {
  await create(t, '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }));
  await create(t, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `blobs.${CR_GROUP}` },
    spec: { group: CR_GROUP, scope: 'Namespaced', names: { plural: 'blobs', singular: 'blob', kind: 'Blob', listKind: 'BlobList' },
      versions: [{ name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  }));
  const until = Date.now() + 30_000;
  while ((await sendRaw(t, { method: 'GET', path: BLOBS })).status !== 200) {
    if (Date.now() > until) throw new Error('hostile: the Blob CRD was not served within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Poll {
  /** Stops polling; resolves with the slowest and the median /readyz latency and how many were answered. */
  stop(): Promise<{ maxMs: number; p50Ms: number; count: number }>;
}

/** One client asking /readyz again as soon as it has its answer, on its own connection. */
function pollReadyz(t: HttpTarget): Poll {
  let running = true;
  const samples: number[] = [];
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await sendRaw(t, { method: 'GET', path: '/readyz', timeoutMs: GUARD_MS });
      samples.push(performance.now() - t0);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...samples].sort((a, b) => a - b);
      return { maxMs: sorted[sorted.length - 1] ?? 0, p50Ms: sorted[Math.floor(sorted.length / 2)] ?? 0, count: samples.length };
    },
  };
}

/** The server's longest event-loop delay since the last stall-reset, in ms. */
async function stall(server: Child<unknown>): Promise<number> {
  const v = await server.command('stall');
  const max = typeof v === 'object' && v !== null && 'maxMs' in v ? v.maxMs : undefined;
  if (typeof max !== 'number') throw new Error(`bad stall answer from the server: ${JSON.stringify(v)}`);
  return max;
}

export interface HostileContext {
  readonly server: Child<unknown>;
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  readonly log: (msg: string) => void;
  readonly note: (msg: string) => void;
}

/** Runs every hostile class against the server; two figures per class (stall and /readyz, in ms). */
export async function measureHostile(ctx: HostileContext): Promise<Figure[]> {
  const admin = newTarget(ctx.url, ctx.ca, ctx.token, 64);
  const attacker = newTarget(ctx.url, ctx.ca, ctx.token, 1);
  const prober = newTarget(ctx.url, ctx.ca, ctx.token, 1);
  try {
    await setUp(admin);
    // Baseline: the idle server.
    await ctx.server.command('stall-reset');
    const idlePoll = pollReadyz(prober);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idle = await idlePoll.stop();
    const idleStall = await stall(ctx.server);
    ctx.note(`hostile: idle server: longest event-loop stall ${idleStall} ms, /readyz max ${idle.maxMs.toFixed(1)} ms ` +
      `p50 ${idle.p50Ms.toFixed(2)} ms over ${idle.count} requests`);
    const figures: Figure[] = [];
    // BENCH_HOSTILE_SKIP=a,b leaves classes out (e.g. one that freezes the server for minutes).
    const skip = new Set((process.env['BENCH_HOSTILE_SKIP'] ?? '').split(',').filter((n) => n !== ''));
    for (const c of cases()) {
      if (skip.has(c.name)) { ctx.note(`hostile-${c.name}: skipped (BENCH_HOSTILE_SKIP)`); continue; }
      ctx.log(`hostile-${c.name}…`);
      if (c.setup !== undefined) await c.setup(admin);
      await ctx.server.command('stall-reset');
      const poll = pollReadyz(prober);
      const t0 = performance.now();
      const res = await sendRaw(attacker, { ...c.request, timeoutMs: GUARD_MS });
      const took = performance.now() - t0;
      const ready = await poll.stop();
      const stalled = await stall(ctx.server);
      figures.push(figure(`hostile-${c.name}-stall`, 'ms', stalled, idleStall),
        figure(`hostile-${c.name}-readyz`, 'ms', ready.maxMs, idle.maxMs));
      ctx.note(`hostile-${c.name}: HTTP ${res.status === 0 ? `none (${res.body.toString('utf8', 0, 80)})` : res.status} after ` +
        `${took.toFixed(0)} ms; longest stall ${stalled} ms; /readyz max ${ready.maxMs.toFixed(1)} ms over ${ready.count} requests`);
    }
    return figures;
  } finally {
    closeTarget(admin);
    closeTarget(attacker);
    closeTarget(prober);
  }
}
