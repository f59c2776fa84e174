// What kube-controller-manager puts in every namespace and clients rely on: the `default`
// ServiceAccount (serviceaccounts-controller) and the `kube-root-ca.crt` ConfigMap holding the
// cluster CA (root-ca-cert-publisher). Recreated when deleted, as those controllers do.
// Counterpart of pkg/controller/serviceaccount and pkg/controller/certificates/rootcacertpublisher.
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import { ItemExponentialFailureRateLimiter } from '../client/workqueue/rate-limiter.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { corev1 } from '../generated/types/index.gen.ts';

const RETRY_MS = 1000;

export class NamespaceDefaultsController extends Controller {
  constructor(
    private readonly namespaces: ResourceStore<KubeObject>,
    private readonly serviceAccounts: ResourceStore<KubeObject>,
    private readonly configMaps: ResourceStore<KubeObject>,
    /** PEM of the CA that signed the serving certificate. */
    private readonly caCert: string,
    opts: ControllerOptions = {},
  ) {
    super('namespace defaults controller', { rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), ...opts });
    const ensure = (ns: KubeObject): void => { this.queue.add(ns.metadata.name ?? ''); };
    this.follow(namespaces, 'namespaces', { onAdd: ensure, onUpdate: (_old, ns) => ensure(ns) });
    const recreate = (name: string) => (obj: KubeObject): void => {
      if (obj.metadata.name === name) this.queue.add(obj.metadata.namespace ?? '');
    };
    this.follow(serviceAccounts, 'serviceaccounts', { onDelete: recreate('default') });
    this.follow(configMaps, 'configmaps', { onDelete: recreate('kube-root-ca.crt') });
  }

  protected async sync(namespace: string): Promise<void> {
    if (namespace === '') return;
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
    const sa: KubeObject & corev1.ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } };
    await this.createIfMissing(this.serviceAccounts, ctx, sa);
    const rootCA: KubeObject & corev1.ConfigMap = {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt', namespace, annotations: { 'kubernetes.io/description': 'The CA bundle that verifies this API server on its in-cluster addresses (the kubernetes service IP, kubernetes.default.svc).' } },
      data: { 'ca.crt': this.caCert },
    };
    await this.createIfMissing(this.configMaps, ctx, rootCA);
  }

  private async createIfMissing(store: ResourceStore<KubeObject>, ctx: ReturnType<typeof systemContext>, obj: KubeObject): Promise<void> {
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
