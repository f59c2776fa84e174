// The pod quota evaluator (pkg/quota/v1/evaluator/core/pods.go): count/pods always, and while the
// pod is not terminal "pods" and its compute requests and limits (the pod's effective ones: sum of
// containers and sidecars, the largest init container, overhead, pod-level resources).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { selectorMatches, type Evaluator } from './resource-quota-evaluators.ts';
import { addQuantity, cmpQuantity, parseQuantity, quantity, type Quantity, type Usage } from './resource-quota-quantity.ts';

type List = Readonly<Record<string, string | number>>;
interface ContainerLike { name?: string; restartPolicy?: string; resources?: { requests?: List; limits?: List } }
interface AffinityTerm { namespaces?: string[]; namespaceSelector?: object }
interface PodAffinityLike {
  requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: AffinityTerm }[];
}
export interface PodLike extends KubeObject {
  spec?: {
    containers?: ContainerLike[]; initContainers?: ContainerLike[]; overhead?: List; priorityClassName?: string;
    activeDeadlineSeconds?: number; resources?: { requests?: List; limits?: List };
    affinity?: { podAffinity?: PodAffinityLike; podAntiAffinity?: PodAffinityLike };
  };
  status?: { phase?: string };
}

const POD_RESOURCES = ['count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory',
  'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods'];
/** The names that, when a quota tracks them, every container must declare (a compatibility rule). */
const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];
const HUGEPAGES = 'hugepages-';

const isNativeResource = (n: string): boolean => !n.includes('/') || n.includes('kubernetes.io/');
/** helper.IsExtendedResourceName: a domain-qualified name outside kubernetes.io, not requests.*. */
const isExtendedResource = (n: string): boolean => !isNativeResource(n) && !n.startsWith('requests.');
const isExtendedQuotaName = (n: string): boolean => !isNativeResource(n) && n.startsWith('requests.');

type Resources = Map<string, Quantity>;

function toResources(list: List | undefined): Resources {
  const out: Resources = new Map();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = parseQuantity(v);
    if (q !== undefined) out.set(k, q);
  }
  return out;
}

const addInto = (into: Resources, r: Resources): void => {
  for (const [k, v] of r) { const cur = into.get(k); into.set(k, cur === undefined ? v : addQuantity(cur, v)); }
};
const maxInto = (into: Resources, r: Resources): void => {
  for (const [k, v] of r) { const cur = into.get(k); if (cur === undefined || cmpQuantity(v, cur) > 0) into.set(k, v); }
};

/** resourcehelper.PodRequests / PodLimits. */
export function podResources(pod: PodLike, which: 'requests' | 'limits'): Resources {
  const spec = pod.spec ?? {};
  const total: Resources = new Map();
  for (const c of spec.containers ?? []) addInto(total, toResources(c.resources?.[which]));
  const sidecars: Resources = new Map();
  const init: Resources = new Map();
  for (const c of spec.initContainers ?? []) {
    const r = toResources(c.resources?.[which]);
    if (c.restartPolicy === 'Always') {
      addInto(total, r);
      addInto(sidecars, r);
      maxInto(init, sidecars);
    } else {
      const withSidecars = new Map(r);
      addInto(withSidecars, sidecars);
      maxInto(init, withSidecars);
    }
  }
  maxInto(total, init);
  const podLevel = toResources(spec.resources?.[which]);
  for (const [k, v] of podLevel) if (k === 'cpu' || k === 'memory' || k.startsWith(HUGEPAGES)) total.set(k, v);
  for (const [k, v] of toResources(spec.overhead)) {
    const cur = total.get(k);
    if (which === 'requests') total.set(k, cur === undefined ? v : addQuantity(cur, v));
    else if (cur !== undefined) total.set(k, addQuantity(cur, v));
  }
  return total;
}

/** podComputeUsageHelper: the quota names a set of requests and limits is charged against. */
function computeUsage(requests: Resources, limits: Resources): Usage {
  const out: Usage = new Map([['pods', quantity(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req !== undefined) { out.set(r, req); out.set(`requests.${r}`, req); }
    const lim = limits.get(r);
    if (lim !== undefined) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith(HUGEPAGES)) { out.set(r, q); out.set(`requests.${r}`, q); }
    if (isExtendedResource(r)) out.set(`requests.${r}`, q);
  }
  return out;
}

/** QuotaV1Pod: terminal pods, and pods past their deletion grace period, use no compute quota. */
export function podCountsTowardsQuota(pod: PodLike, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const ts = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (ts !== undefined && grace !== undefined && now > Date.parse(ts) + grace * 1000) return false;
  return true;
}

function isBestEffort(pod: PodLike): boolean {
  const spec = pod.spec ?? {};
  const lists = [...[...spec.containers ?? [], ...spec.initContainers ?? []]
    .flatMap((c) => [c.resources?.requests, c.resources?.limits]), spec.resources?.requests, spec.resources?.limits];
  return !lists.some((l) => ['cpu', 'memory'].some((r) => {
    const v = l?.[r];
    return v !== undefined && (parseQuantity(v)?.nano ?? 0n) !== 0n;
  }));
}

function crossNamespaceAffinity(pod: PodLike): boolean {
  const cross = (t: AffinityTerm | undefined): boolean => t !== undefined && ((t.namespaces ?? []).length > 0 || t.namespaceSelector !== undefined);
  const a = pod.spec?.affinity;
  return [a?.podAffinity, a?.podAntiAffinity].some((x) =>
    (x?.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(cross) ||
    (x?.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((w) => cross(w.podAffinityTerm)));
}

export const podEvaluator: Evaluator = {
  groupResource: { group: '', resource: 'pods' },
  handles: (a) => (a.subresource === '' && a.operation === 'CREATE') || (a.subresource === 'resize' && a.operation === 'UPDATE'),
  matchingResources: (input) => [...input.filter((n) => POD_RESOURCES.includes(n)),
    ...input.filter((n) => n.startsWith(HUGEPAGES) || n.startsWith(`requests.${HUGEPAGES}`) || isExtendedQuotaName(n))],
  matchesScope(sel, obj) {
    const pod = obj as PodLike;
    switch (sel.scopeName) {
      case 'Terminating': return (pod.spec?.activeDeadlineSeconds ?? -1) >= 0;
      case 'NotTerminating': return !((pod.spec?.activeDeadlineSeconds ?? -1) >= 0);
      case 'BestEffort': return isBestEffort(pod);
      case 'NotBestEffort': return !isBestEffort(pod);
      case 'PriorityClass': {
        const pc = pod.spec?.priorityClassName ?? '';
        if (sel.operator === 'Exists') return pc !== '';
        return selectorMatches(sel, pc === '' ? undefined : pc);
      }
      case 'CrossNamespacePodAffinity': return crossNamespaceAffinity(pod);
      default: return false;
    }
  },
  constraints(required, obj) {
    const pod = obj as PodLike;
    const req = required.filter((r) => VALIDATION_SET.includes(r));
    const missing = new Map<string, Set<string>>();
    for (const c of [...pod.spec?.containers ?? [], ...pod.spec?.initContainers ?? []]) {
      const have = computeUsage(toResources(c.resources?.requests), toResources(c.resources?.limits));
      for (const r of req) {
        if (have.has(r)) continue;
        let set = missing.get(r);
        if (set === undefined) missing.set(r, set = new Set());
        set.add(c.name ?? '');
      }
    }
    if (missing.size === 0) return undefined;
    return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r) ?? []].sort().join(',')}`).join('; ')}`;
  },
  usage(obj, now) {
    const pod = obj as PodLike;
    const out: Usage = new Map([['count/pods', quantity(1)]]);
    if (!podCountsTowardsQuota(pod, now)) return out;
    for (const [k, v] of computeUsage(podResources(pod, 'requests'), podResources(pod, 'limits'))) out.set(k, v);
    return out;
  },
};
