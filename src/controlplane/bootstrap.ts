// What kube-apiserver's bootstrap hooks create at start (idempotently, so several servers may
// start together): the system namespaces, the system priority classes, and the `kubernetes`
// service with its endpoints and endpoint slice.
// Counterpart of pkg/controlplane/controller/systemnamespaces, pkg/controlplane/controller/kubernetesservice
// and pkg/registry/scheduling/rest (AddSystemPriorityClasses).
import { isIPv6 } from 'node:net';
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../apimachinery/meta/types.ts';
import type { corev1, discoveryv1 } from '../generated/types/index.gen.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { systemPriorityClasses } from '../apis/scheduling/install.ts';
import { ensureDefaultServiceCIDR } from './default-servicecidr.ts';

const SYSTEM_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export interface BootstrapOptions {
  /** The first IP of --service-cluster-ip-range. */
  readonly kubernetesServiceIP: string;
  readonly securePort: number;
  /** The address clients in the cluster reach this server on; without one no endpoints are written. */
  readonly advertiseAddress: string | undefined;
  /** --service-cluster-ip-range, primary and (dual-stack) secondary: the default ServiceCIDR. */
  readonly serviceClusterIPRange: { readonly text: string };
  readonly secondaryServiceClusterIPRange?: { readonly text: string };
  /**
   * --endpoint-reconciler-type: with one, the endpoints are that reconciler's (lease) or nobody's
   * (none); without one (embedding), they are written here once.
   */
  readonly endpointReconcilerType?: 'lease' | 'none';
}

async function exists(store: ResourceStore<KubeObject>, namespace: string, name: string): Promise<boolean> {
  try {
    await store.get(systemContext(namespace), name, {});
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

const ATTEMPTS = 20;
const RETRY_MS = 100;

/**
 * Creates the object unless it exists. Servers starting together race here: the loser's create
 * fails (AlreadyExists, or the kubernetes service's IP already taken by the winner, whose object
 * may not be stored yet), so a failed create is retried until the object exists, as kube's
 * bootstrap controller keeps reconciling.
 */
async function createIfMissing(store: ResourceStore<KubeObject>, namespace: string, obj: KubeObject): Promise<void> {
  const name = obj.metadata.name ?? '';
  store.definition.defaults?.(obj);
  let last: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await exists(store, namespace, name)) return;
    try {
      await store.create(systemContext(namespace), structuredClone(obj), undefined, { dryRun: false });
      return;
    } catch (err) {
      if (isAlreadyExists(err)) return;
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
  throw last;
}

/** The start-system-namespaces-controller hook: default, kube-system, kube-public, kube-node-lease. */
export async function ensureSystemNamespaces(namespaces: ResourceStore<KubeObject>): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    await createIfMissing(namespaces, '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
}

/** The scheduling/bootstrap-system-priority-classes hook: the system priority classes exist wherever scheduling.k8s.io is served. */
export async function ensureSystemPriorityClasses(priorityClasses: ResourceStore<KubeObject>): Promise<void> {
  for (const pc of systemPriorityClasses()) await createIfMissing(priorityClasses, '', pc as KubeObject);
}

export interface BootstrapStores {
  readonly services: ResourceStore<KubeObject>;
  readonly endpoints: ResourceStore<KubeObject>;
  readonly endpointSlices: ResourceStore<KubeObject> | undefined;
  readonly serviceCIDRs: ResourceStore<KubeObject> | undefined;
}

/** The bootstrap-controller hook: the kubernetes service, with its endpoints and endpoint slice when there is an address to advertise. */
export async function bootstrapKubernetesService(stores: BootstrapStores, opts: BootstrapOptions): Promise<void> {
  // The default ServiceCIDR comes before the kubernetes service, whose address lies in it.
  if (stores.serviceCIDRs !== undefined) {
    await ensureDefaultServiceCIDR(stores.serviceCIDRs,
      [opts.serviceClusterIPRange.text, ...(opts.secondaryServiceClusterIPRange !== undefined ? [opts.secondaryServiceClusterIPRange.text] : [])]);
  }
  const labels = { component: 'apiserver', provider: 'kubernetes' };
  const service: WireObject<corev1.Service> = {
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default', labels },
    spec: {
      type: 'ClusterIP', clusterIP: opts.kubernetesServiceIP, clusterIPs: [opts.kubernetesServiceIP],
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.securePort }], sessionAffinity: 'None',
    },
  };
  await createIfMissing(stores.services, 'default', service);
  if (opts.advertiseAddress === undefined || opts.endpointReconcilerType !== undefined) return;
  const endpoints: WireObject<corev1.Endpoints> = {
    apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: opts.advertiseAddress }], ports: [{ name: 'https', port: opts.securePort, protocol: 'TCP' }] }],
  };
  await createIfMissing(stores.endpoints, 'default', endpoints);
  // kube's endpoints reconciler writes the same address as an EndpointSlice, which is what
  // clients (kube-proxy, client-go's endpointslice users) read the apiserver's address from.
  if (stores.endpointSlices === undefined) return;
  const slice: WireObject<discoveryv1.EndpointSlice> = {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: isIPv6(opts.advertiseAddress) ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [opts.advertiseAddress], conditions: { ready: true } }],
    ports: [{ name: 'https', port: opts.securePort, protocol: 'TCP' }],
  };
  await createIfMissing(stores.endpointSlices, 'default', slice);
}
