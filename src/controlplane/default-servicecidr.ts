// The default ServiceCIDR (pkg/controlplane/controller/defaultservicecidr): the object named
// "kubernetes" holds the --service-cluster-ip-range CIDRs, primary first, and reports Ready.
// A single-stack default gains the second family when the server restarts dual-stack, the one
// change kube allows on ServiceCIDR specs; any other difference is left as stored.
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../apimachinery/meta/types.ts';
import type { networkingv1 } from '../generated/types/index.gen.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { formatCIDR, parseCIDRSloppy } from '../apimachinery/validation/ip.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';
const READY_MESSAGE = 'Kubernetes default Service CIDR is ready';

type ServiceCIDRObject = WireObject<networkingv1.ServiceCIDR>;

const canonical = (text: string): string => {
  const c = parseCIDRSloppy(text);
  return c === undefined ? text : formatCIDR(c);
};

const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

async function getOrUndefined(store: ResourceStore<KubeObject>): Promise<ServiceCIDRObject | undefined> {
  try {
    return await store.get(systemContext(''), DEFAULT_SERVICE_CIDR_NAME, {}) as ServiceCIDRObject;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Creates or completes the default ServiceCIDR for `ranges` (the flag's CIDRs) and marks it Ready. */
export async function ensureDefaultServiceCIDR(store: ResourceStore<KubeObject>, ranges: readonly string[]): Promise<void> {
  const cidrs = ranges.map(canonical);
  let current = await getOrUndefined(store);
  if (current === undefined) {
    try {
      const obj: ServiceCIDRObject = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: DEFAULT_SERVICE_CIDR_NAME }, spec: { cidrs } };
      current = await store.create(systemContext(''), obj, undefined, { dryRun: false }) as ServiceCIDRObject;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      current = await getOrUndefined(store);
    }
  }
  if (current === undefined) return;
  const stored = current.spec?.cidrs ?? [];
  const upgrade = stored.length === 1 && cidrs.length === 2 && stored[0] === cidrs[0];
  const ready = (current.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  if (!upgrade && ready) return;
  await store.updateUnchecked(systemContext(''), DEFAULT_SERVICE_CIDR_NAME, (cur) => {
    const sc = structuredClone(cur) as ServiceCIDRObject;
    if (upgrade) sc.spec = { ...sc.spec, cidrs };
    const others = (sc.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
    // kube's metav1.Condition always writes reason, even empty.
    sc.status = { ...sc.status, conditions: [...others, { type: 'Ready', status: 'True', lastTransitionTime: now(), reason: '', message: READY_MESSAGE }] };
    return sc;
  }, { dryRun: false });
}
