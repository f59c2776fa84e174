// Where each benchmark request goes. kapi gets the real ConfigMap API; the baseline gets paths
// that make the bare server answer bodies of the sizes kapi answered, so both sides move the
// same bytes through the same client code.
// No Go counterpart: the bench.

export interface Routes {
  create(ns: string): string;
  get(ns: string, name: string): string;
  update(ns: string, name: string): string;
  list(ns: string): string;
  /** A watch from `resourceVersion` (a list's), or from now when undefined. */
  watch(ns: string, resourceVersion?: string): string;
  /** The write whose event the watch latency waits for. */
  watchWrite(ns: string, name: string): string;
}

const collection = (ns: string): string => `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`;
const item = (ns: string, name: string): string => `${collection(ns)}/${encodeURIComponent(name)}`;

export const kapiRoutes: Routes = {
  create: collection,
  get: item,
  update: item,
  list: collection,
  watch: (ns, rv) => `${collection(ns)}?watch=1${rv === undefined ? '' : `&resourceVersion=${encodeURIComponent(rv)}`}`,
  watchWrite: collection,
};

/** Response sizes observed on kapi, in bytes; filled in as the kapi phases run. */
export interface ResponseSizes {
  create: number;
  get: number;
  update: number;
  /** Per namespace. */
  readonly list: Map<string, number>;
  watchEvent: number;
}

export function newResponseSizes(): ResponseSizes {
  return { create: 0, get: 0, update: 0, list: new Map(), watchEvent: 0 };
}

/** Baseline paths; sizes are read when a path is built, so they may be filled in later. */
export function baselineRoutes(sizes: ResponseSizes): Routes {
  const bytes = (n: number): string => `/bytes/${Math.max(2, n)}`;
  return {
    create: () => bytes(sizes.create),
    get: () => bytes(sizes.get),
    update: () => bytes(sizes.update),
    list: (ns) => bytes(sizes.list.get(ns) ?? 2),
    watch: () => '/watch',
    watchWrite: (_ns, name) => `/poke/${encodeURIComponent(name)}/${sizes.watchEvent}/${Math.max(2, sizes.create)}`,
  };
}
