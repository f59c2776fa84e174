// Quota evaluators (pkg/quota/v1/evaluator/core and k8s.io/apiserver/pkg/quota/v1/generic): for
// one kind of object, which quota resource names it is charged against, how much one object uses,
// which quota scopes it falls in, and which resources a pod must declare.
import type { KubeObject, WireObject } from '../../apimachinery/meta/types.ts';
import type { DeepReadonly } from '../../apimachinery/validation/readonly.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import type { Attributes } from '../interfaces.ts';
import { quantity, parseQuantity, type Quantity, type Usage } from './resource-quota-quantity.ts';

export interface GroupResource { readonly group: string; readonly resource: string }
export type ScopeSelector = DeepReadonly<corev1.ScopedResourceSelectorRequirement>;
/** A stored ResourceQuota. */
export type QuotaObject = WireObject<corev1.ResourceQuota>;

export interface Evaluator {
  readonly groupResource: GroupResource;
  /** Whether this request can change usage (pods: create only; services and claims: updates too). */
  handles(a: Attributes): boolean;
  /** The names among `names` this evaluator charges. */
  matchingResources(names: readonly string[]): string[];
  /** Whether an object falls in a quota scope; a kind without scopes is in none. */
  matchesScope(selector: ScopeSelector, obj: KubeObject): boolean;
  /** The "must specify ..." text when the object lacks a resource `required` tracks, else undefined. */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
  usage(obj: KubeObject, now: number): Usage;
}

/** `count/<resource>[.<group>]` (generic.ObjectCountQuotaResourceNameFor). */
export const objectCountName = (gr: GroupResource): string => `count/${gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`}`;

/** The group and resource a `count/...` name counts; undefined for any other name. */
export function parseObjectCountName(name: string): GroupResource | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

/** Resources no quota counts (virtual or not stored), as kube's quota install ignores them. */
export const IGNORED_RESOURCES: ReadonlySet<string> = new Set([
  '/bindings', '/componentstatuses', '/events', 'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews',
]);

const one = (): Quantity => quantity(1);
const noScope = (): boolean => false;
const intersect = (names: readonly string[], set: readonly string[]): string[] => names.filter((n) => set.includes(n));

/** The evaluator for plain object counts, with the legacy alias (configmaps, secrets, ...) where kube has one. */
export function objectCountEvaluator(gr: GroupResource, alias?: string): Evaluator {
  const names = [objectCountName(gr), ...(alias === undefined ? [] : [alias])];
  return {
    groupResource: gr,
    handles: (a) => a.operation === 'CREATE',
    matchingResources: (input) => intersect(input, names),
    matchesScope: noScope,
    constraints: () => undefined,
    usage: () => new Map(names.map((n) => [n, one()])),
  };
}

// ---- services ----
type ServiceLike = WireObject<corev1.Service>;
const SERVICE_RESOURCES = ['count/services', 'services', 'services.loadbalancers', 'services.nodeports'];

export const serviceEvaluator: Evaluator = {
  groupResource: { group: '', resource: 'services' },
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  matchingResources: (input) => intersect(input, SERVICE_RESOURCES),
  matchesScope: noScope,
  constraints: () => undefined,
  usage(obj) {
    const spec = (obj as ServiceLike).spec ?? {};
    const ports = spec.ports ?? [];
    let nodePorts = 0;
    let lbs = 0;
    if (spec.type === 'NodePort') nodePorts = ports.length;
    if (spec.type === 'LoadBalancer') {
      lbs = 1;
      nodePorts = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => (p.nodePort ?? 0) !== 0).length : ports.length;
    }
    return new Map([['count/services', one()], ['services', one()],
      ['services.loadbalancers', quantity(lbs)], ['services.nodeports', quantity(nodePorts)]]);
  },
};

// ---- persistent volume claims ----
interface ClaimLike extends KubeObject {
  spec?: { storageClassName?: string; volumeAttributesClassName?: string; resources?: { requests?: Record<string, string> } };
  status?: { allocatedResources?: Record<string, string>; currentVolumeAttributesClassName?: string; modifyVolumeStatus?: { targetVolumeAttributesClassName?: string } };
}
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const CLAIM_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];

function claimClass(pvc: ClaimLike): string {
  return pvc.spec?.storageClassName ?? pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
}

/** The requested storage, rounded up to whole bytes; the allocated size when larger. */
function claimStorage(pvc: ClaimLike): Quantity | undefined {
  const whole = (q: Quantity): Quantity => ({ ...q, nano: (q.nano + 999_999_999n) / 1_000_000_000n * 1_000_000_000n });
  const req = pvc.spec?.resources?.requests?.['storage'];
  const requested = req === undefined ? undefined : parseQuantity(req);
  if (requested === undefined) return undefined;
  const alloc = pvc.status?.allocatedResources?.['storage'];
  const allocated = alloc === undefined ? undefined : parseQuantity(alloc);
  return whole(allocated !== undefined && allocated.nano > requested.nano ? allocated : requested);
}

function volumeAttributesClasses(pvc: ClaimLike): string[] {
  return [pvc.spec?.volumeAttributesClassName, pvc.status?.currentVolumeAttributesClassName,
    pvc.status?.modifyVolumeStatus?.targetVolumeAttributesClassName].filter((n): n is string => n !== undefined && n !== '');
}

export const persistentVolumeClaimEvaluator: Evaluator = {
  groupResource: { group: '', resource: 'persistentvolumeclaims' },
  handles: (a) => a.operation === 'CREATE' || a.operation === 'UPDATE',
  matchingResources: (input) => input.filter((n) => n === 'count/persistentvolumeclaims' || CLAIM_RESOURCES.includes(n) ||
    CLAIM_RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r))),
  matchesScope(sel, obj) {
    if (sel.scopeName !== 'VolumeAttributesClass') return false;
    const names = volumeAttributesClasses(obj as ClaimLike);
    if (sel.operator === 'Exists') return names.length > 0;
    return names.length === 0 ? selectorMatches(sel, undefined) : names.some((n) => selectorMatches(sel, n));
  },
  constraints: () => undefined,
  usage(obj) {
    const pvc = obj as ClaimLike;
    const out: Usage = new Map([['persistentvolumeclaims', one()], ['count/persistentvolumeclaims', one()]]);
    const cls = claimClass(pvc);
    if (cls !== '') out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, one());
    const storage = claimStorage(pvc);
    if (storage !== undefined) {
      out.set('requests.storage', storage);
      if (cls !== '') out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
};

/** A scope selector as a label selector on the one key `scopeName` (value: e.g. the priority class). */
export function selectorMatches(sel: ScopeSelector, value: string | undefined): boolean {
  const values = sel.values ?? [];
  switch (sel.operator) {
    case 'In': return value !== undefined && values.includes(value);
    case 'NotIn': return value === undefined || !values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    default: return false;
  }
}
