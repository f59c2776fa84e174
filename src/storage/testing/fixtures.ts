// Helpers shared by the storage conformance suites.
// Counterpart of k8s.io/apiserver/pkg/storage/testing/utils.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import type { Backend } from '../backend.ts';
import { EVERYTHING, type Interface, type SelectionPredicate } from '../interfaces.ts';
import { jsonCodec } from '../json-codec.ts';
import { newStore, type StoreOptions } from '../store.ts';

export type OpenBackend = () => Promise<Backend>;
export type NewStore = (backend: Backend, opts: StoreOptions) => Interface;

export const defaultNewStore: NewStore = (backend, opts) => newStore(backend, jsonCodec, opts);

export interface Fixture {
  readonly backend: Backend;
  readonly store: Interface;
}

/** A store with a life of its own (a watch cache): ready once it serves, stopped after the test. */
interface Lifecycle { ready(): Promise<void>; stop(): void }

const hasLifecycle = (s: object): s is Lifecycle => 'ready' in s && 'stop' in s;

/** Runs fn against a fresh backend and store, closing the backend afterwards. */
export function withStore(open: OpenBackend, make: NewStore, fn: (f: Fixture) => Promise<void>,
  opts: StoreOptions = {}): () => Promise<void> {
  return async () => {
    const backend = await open();
    const store = make(backend, opts);
    try {
      if (hasLifecycle(store)) await store.ready();
      await fn({ backend, store });
    } finally {
      if (hasLifecycle(store)) store.stop();
      await backend.close();
    }
  };
}

export function pod(name: string, labels: Record<string, string> = {}, data = ''): KubeObject & { data: string } {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: `uid-${name}`, labels }, data };
}

export const key = (name: string, ns = 'ns'): string => `/registry/pods/${ns}/${name}`;
export const PODS = '/registry/pods';

export function labelIs(k: string, v: string): SelectionPredicate {
  return { empty: false, matches: (o) => o.metadata.labels?.[k] === v };
}

export const everything = EVERYTHING;

export const rvOf = (o: KubeObject | undefined): number => Number(o?.metadata.resourceVersion ?? NaN);

/** The next `n` events of a watch; fails instead of hanging when they never come. */
export async function take(w: Watch, n: number, waitMs = 10_000): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  if (n === 0) return out;
  const it = w[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`got ${out.length} of ${n} watch events: ${JSON.stringify(out.map(brief))}`)), waitMs);
  });
  try {
    while (out.length < n) {
      const r = await Promise.race([it.next(), timeout]);
      if (r.done === true) break;
      out.push(r.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** Resolves true when the watch ends (iteration done) before `waitMs`. */
export async function drainsToEnd(w: Watch, waitMs = 10_000): Promise<{ ended: boolean; events: WatchEvent[] }> {
  const events: WatchEvent[] = [];
  const it = w[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), waitMs); });
  try {
    for (;;) {
      const r = await Promise.race([it.next(), timeout]);
      if (r === 'timeout') return { ended: false, events };
      if (r.done === true) return { ended: true, events };
      events.push(r.value);
    }
  } finally {
    clearTimeout(timer);
  }
}

export function brief(e: WatchEvent): string {
  const m = e.object.metadata as { name?: string; resourceVersion?: string };
  return `${e.type}:${m.name ?? ''}@${m.resourceVersion ?? ''}`;
}
