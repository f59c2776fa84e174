// The lease endpoint reconciler (--endpoint-reconciler-type=lease): each server keeps a key
// <prefix>/masterleases/<its IP> that expires 15 s after its last refresh, refreshes it every
// 10 s, and writes the `kubernetes` Endpoints (and its EndpointSlice) to list exactly the IPs that
// hold a live key. On shutdown a server deletes its key and rewrites the list without itself, so
// the endpoints name the live servers only. With `none` nothing manages the endpoints.
// Counterpart of pkg/controlplane/reconcilers/lease.go and endpointsadapter.go, and the
// kubernetes service controller's endpoint loop (pkg/controlplane/controller/kubernetesservice).
import { isIPv6 } from 'node:net';
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { Backend } from '../storage/backend.ts';
import { decodeValue, DEFAULT_STORAGE_MEDIA_TYPE, encodeValue } from '../storage/value-codec.ts';

/** kube's DefaultEndpointReconcilerTTL and EndpointReconcilerInterval. */
export const MASTER_LEASE_TTL_SECONDS = 15;
export const RECONCILE_INTERVAL_MS = 10_000;

const SERVICE = 'kubernetes';
const NAMESPACE = 'default';

export interface EndpointReconcilerOptions {
  readonly backend: Backend;
  readonly etcdPrefix: string;
  readonly endpoints: ResourceStore<KubeObject>;
  readonly endpointSlices: ResourceStore<KubeObject> | undefined;
  readonly ip: string;
  readonly port: number;
}

interface EndpointsObject extends KubeObject {
  subsets?: { addresses?: { ip: string }[]; ports?: { name?: string; port: number; protocol?: string }[] }[];
}

export class LeaseEndpointReconciler {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly o: EndpointReconcilerOptions) {}

  private get leasePrefix(): string { return `${this.o.etcdPrefix.replace(/\/+$/, '')}/masterleases/`; }

  /** Refreshes this server's key (creating it when it expired or never was). */
  private async updateLease(): Promise<void> {
    const key = `${this.leasePrefix}${this.o.ip}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = (await this.o.backend.range(key)).kvs[0];
      const generation = current === undefined ? 0 : (decodeValue(current.value).metadata.generation ?? 0) + 1;
      // The key holds an Endpoints naming the IP, encoded as kube's storage encodes it (a server
      // beside a kube-apiserver on one etcd reads and refreshes kube's keys, and kube kapi's); the
      // generation changes so that every refresh is a write that resets the TTL.
      const lease: EndpointsObject = { kind: 'Endpoints', apiVersion: 'v1', metadata: { name: this.o.ip, generation },
        subsets: [{ addresses: [{ ip: this.o.ip }] }] };
      const value = encodeValue(lease, DEFAULT_STORAGE_MEDIA_TYPE);
      const r = current === undefined ? await this.o.backend.create(key, value, MASTER_LEASE_TTL_SECONDS)
        : await this.o.backend.update(key, value, current.modRevision, MASTER_LEASE_TTL_SECONDS);
      if (r.succeeded) return;
    }
    throw new Error(`master lease ${this.o.ip}: too many conflicts`);
  }

  private async listLeases(): Promise<string[]> {
    const now = Date.now();
    const kvs = (await this.o.backend.range(this.leasePrefix, { prefix: true })).kvs;
    return kvs.filter((kv) => kv.expiresAt === 0 || kv.expiresAt > now).map((kv) => kv.key.slice(this.leasePrefix.length)).sort();
  }

  /** Makes the endpoints list exactly the IPs with a live lease (never none: that is refused, as kube does). */
  private async doReconcile(): Promise<void> {
    const ips = await this.listLeases();
    if (ips.length === 0) return;
    const ports = [{ name: 'https', port: this.o.port, protocol: 'TCP' }];
    const want = [{ addresses: ips.map((ip) => ({ ip })), ports }];
    const ctx = systemContext(NAMESPACE);
    let current: EndpointsObject | undefined;
    try {
      current = await this.o.endpoints.get(ctx, SERVICE, {}) as EndpointsObject;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const labels = { 'endpointslice.kubernetes.io/skip-mirror': 'true' };
    if (current === undefined) {
      const obj: EndpointsObject = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: SERVICE, namespace: NAMESPACE, labels }, subsets: want };
      await this.o.endpoints.create(ctx, obj, undefined, { dryRun: false }).catch((err: unknown) => { if (!isAlreadyExists(err)) throw err; });
    } else if (JSON.stringify(current.subsets) !== JSON.stringify(want) || current.metadata.labels?.['endpointslice.kubernetes.io/skip-mirror'] !== 'true') {
      await this.o.endpoints.updateUnchecked(ctx, SERVICE, (cur) => ({
        ...cur, metadata: { ...cur.metadata, labels: { ...cur.metadata.labels, ...labels } }, subsets: want,
      }), { dryRun: false });
    }
    await this.ensureSlice(ips, ports);
  }

  /** The EndpointSlice kube writes from the Endpoints: one endpoint per address, ready. */
  private async ensureSlice(ips: readonly string[], ports: readonly { name: string; port: number; protocol: string }[]): Promise<void> {
    const store = this.o.endpointSlices;
    if (store === undefined) return;
    const ctx = systemContext(NAMESPACE);
    const endpoints = ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } }));
    let current: (KubeObject & { endpoints?: unknown; ports?: unknown }) | undefined;
    try {
      current = await store.get(ctx, SERVICE, {}) as KubeObject & { endpoints?: unknown };
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    if (current === undefined) {
      const slice = {
        apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
        metadata: { name: SERVICE, namespace: NAMESPACE, labels: { 'kubernetes.io/service-name': SERVICE } },
        addressType: isIPv6(this.o.ip) ? 'IPv6' : 'IPv4', endpoints, ports,
      };
      await store.create(ctx, slice, undefined, { dryRun: false }).catch((err: unknown) => { if (!isAlreadyExists(err)) throw err; });
    } else if (JSON.stringify(current.endpoints) !== JSON.stringify(endpoints) || JSON.stringify(current.ports) !== JSON.stringify(ports)) {
      await store.updateUnchecked(ctx, SERVICE, (cur) => ({ ...cur, endpoints, ports }), { dryRun: false });
    }
  }

  /** One pass: refresh this server's lease, then the endpoints. Passes never overlap. */
  reconcile(): Promise<void> {
    const next = this.running.then(async () => {
      if (this.stopped) return;
      await this.updateLease();
      await this.doReconcile();
    });
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Reconciles now and every 10 s. */
  async start(): Promise<void> {
    await this.reconcile();
    this.timer = setInterval(() => {
      this.reconcile().catch((err: unknown) => { console.error('endpoint reconciler:', err); });
    }, RECONCILE_INTERVAL_MS).unref();
  }

  /** Stops reconciling, deletes this server's lease and rewrites the endpoints without it. */
  async removeEndpoints(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await this.o.backend.delete(`${this.leasePrefix}${this.o.ip}`);
    await this.doReconcile();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
