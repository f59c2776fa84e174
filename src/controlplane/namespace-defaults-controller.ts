// What kube-controller-manager puts in every namespace and clients rely on: the `default`
// ServiceAccount (serviceaccounts-controller) and the `kube-root-ca.crt` ConfigMap holding the
// cluster CA (root-ca-cert-publisher). Recreated when deleted, as those controllers do.
// Counterpart of pkg/controller/serviceaccount and pkg/controller/certificates/rootcacertpublisher.
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { Watch } from '../apimachinery/watch/event.ts';
import type { Store } from '../registry/generic/store.ts';

const RETRY_MS = 1000;

export class NamespaceDefaultsController {
  private readonly watches: Watch[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly namespaces: Store<KubeObject>,
    private readonly serviceAccounts: Store<KubeObject>,
    private readonly configMaps: Store<KubeObject>,
    /** PEM of the CA that signed the serving certificate. */
    private readonly caCert: string,
  ) {}

  async start(): Promise<void> {
    const follow = async (store: Store<KubeObject>, onEvent: (type: string, obj: KubeObject) => void): Promise<void> => {
      const w = await store.watch(systemContext(''), {});
      this.watches.push(w);
      void (async () => {
        try {
          for await (const ev of w) if (ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') onEvent(ev.type, ev.object);
        } catch {
          // storage closed: stopping
        }
      })();
    };
    await follow(this.namespaces, (type, ns) => { if (type !== 'DELETED') this.ensure(ns.metadata.name ?? ''); });
    const recreate = (name: string) => (type: string, obj: KubeObject): void => {
      if (type === 'DELETED' && obj.metadata.name === name) this.ensure(obj.metadata.namespace ?? '');
    };
    await follow(this.serviceAccounts, recreate('default'));
    await follow(this.configMaps, recreate('kube-root-ca.crt'));
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.watches) w.stop();
    for (const t of this.timers) clearTimeout(t);
  }

  private ensure(namespace: string): void {
    void this.sync(namespace).catch(() => {
      if (this.stopped) return;
      const t = setTimeout(() => { this.timers.delete(t); this.ensure(namespace); }, RETRY_MS);
      this.timers.add(t);
    });
  }

  private async sync(namespace: string): Promise<void> {
    if (this.stopped || namespace === '') return;
    const ctx = systemContext(namespace);
    let ns: KubeObject;
    try {
      ns = await this.namespaces.get(ctx, namespace, {});
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    // A terminating namespace gets no new content.
    if (ns.metadata.deletionTimestamp !== undefined) return;
    await this.createIfMissing(this.serviceAccounts, ctx, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
    await this.createIfMissing(this.configMaps, ctx, {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt', namespace, annotations: { 'kubernetes.io/description': 'The CA bundle that verifies this API server on its in-cluster addresses (the kubernetes service IP, kubernetes.default.svc).' } },
      data: { 'ca.crt': this.caCert },
    } as KubeObject);
  }

  private async createIfMissing(store: Store<KubeObject>, ctx: ReturnType<typeof systemContext>, obj: KubeObject): Promise<void> {
    try {
      await store.get(ctx, obj.metadata.name ?? '', {});
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await store.create(ctx, obj, undefined, { dryRun: false });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
}
