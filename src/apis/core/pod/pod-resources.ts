// Pod-level resources (KEP-2837, PodLevelResources on in v1.36): the containers' aggregate
// requests and limits as the scheduler counts them (component-helpers' AggregateContainerRequests:
// sidecars add up, other init containers count at their peak), the defaulting of the pod-level
// requests and huge page limits from them (SetDefaults_Pod), and validatePodResourceConsistency.
// Counterpart of k8s.io/component-helpers/resource, pkg/apis/core/v1/defaults.go and pkg/apis/core/validation.
import { invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { addQuantity, cmpQuantity, formatQuantity, parseQuantity, type Quantity } from '../../../apimachinery/resource/quantity.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Container, Pod, ResourceList } from '../v1/types.ts';
import { isHugePageResourceName, isOvercommitAllowed } from '../v1/resource-names.ts';

type RO<T> = DeepReadonly<T>;
type Totals = Map<string, Quantity>;

/** IsSupportedPodLevelResource: cpu, memory and huge pages. */
export const isSupportedPodLevelResource = (name: string): boolean => name === 'cpu' || name === 'memory' || isHugePageResourceName(name);

function add(into: Totals, list: RO<ResourceList> | undefined): void {
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = parseQuantity(v);
    if (q === undefined) continue;
    const cur = into.get(k);
    into.set(k, cur === undefined ? q : addQuantity(cur, q));
  }
}

function max(into: Totals, other: Totals): void {
  for (const [k, v] of other) {
    const cur = into.get(k);
    if (cur === undefined || cmpQuantity(v, cur) > 0) into.set(k, v);
  }
}

/** AggregateContainerRequests / AggregateContainerLimits of a pod's spec. */
export function aggregateContainers(containers: readonly RO<Container>[], inits: readonly RO<Container>[], which: 'requests' | 'limits'): Totals {
  const total: Totals = new Map();
  for (const c of containers) add(total, c.resources?.[which]);
  const sidecars: Totals = new Map();
  const initPeak: Totals = new Map();
  for (const c of inits) {
    let use: Totals;
    if (c.restartPolicy === 'Always') {
      add(total, c.resources?.[which]);
      add(sidecars, c.resources?.[which]);
      use = new Map(sidecars);
    } else {
      use = new Map(sidecars);
      add(use, c.resources?.[which]);
    }
    max(initPeak, use);
  }
  max(total, initPeak);
  return total;
}

const asList = (t: Totals): Record<string, string> => Object.fromEntries([...t].map(([k, v]) => [k, formatQuantity(v)]));

/** defaultHugePagePodLimits then defaultPodRequests, for a pod whose spec.resources is partly set. */
export function defaultPodLevelResources(pod: Pod): void {
  const res = pod.spec.resources;
  if (res === undefined || res === null) return;
  const containers = pod.spec.containers ?? [];
  const inits = pod.spec.initContainers ?? [];
  if (Object.keys(res.limits ?? {}).length > 0 || Object.keys(res.requests ?? {}).length > 0) {
    const limits: ResourceList = { ...res.limits };
    for (const [k, v] of Object.entries(asList(aggregateContainers(containers, inits, 'limits')))) {
      if (!isHugePageResourceName(k) || Object.hasOwn(res.requests ?? {}, k) || Object.hasOwn(limits, k)) continue;
      limits[k] = v;
    }
    if (Object.keys(limits).length > 0) res.limits = limits;
  }
  if (Object.keys(res.limits ?? {}).length === 0) return;
  const requests: ResourceList = { ...res.requests };
  for (const [k, v] of Object.entries(asList(aggregateContainers(containers, inits, 'requests')))) {
    if (!Object.hasOwn(requests, k) && isSupportedPodLevelResource(k) && isOvercommitAllowed(k)) requests[k] = v;
  }
  for (const [k, v] of Object.entries(res.limits ?? {})) if (!Object.hasOwn(requests, k) && isSupportedPodLevelResource(k)) requests[k] = v;
  if (Object.keys(requests).length > 0) res.requests = requests;
}

/** validatePodResourceConsistency: the pod's requests cover the containers', its limits each container's. */
export function validatePodResourceConsistency(pod: { readonly spec: RO<Pod['spec']> }, p: FieldPath): FieldError[] {
  const res = pod.spec.resources;
  if (res === undefined || res === null) return [];
  const containers = pod.spec.containers ?? [];
  const inits = pod.spec.initContainers ?? [];
  const errs: FieldError[] = [];
  for (const [k, total] of aggregateContainers(containers, inits, 'requests')) {
    const podReq = parseQuantity(res.requests?.[k] ?? '');
    if (res.requests?.[k] === undefined || podReq === undefined) continue;
    if (cmpQuantity(total, podReq) > 0) {
      errs.push(invalid(p.child('requests').key(k), formatQuantity(podReq), `must be greater than or equal to aggregate container requests of ${formatQuantity(total)}`));
    }
  }
  for (const [k, total] of aggregateContainers(containers, inits, 'limits')) {
    if (!isHugePageResourceName(k)) continue;
    const podLim = parseQuantity(res.limits?.[k] ?? '');
    if (res.limits?.[k] === undefined || podLim === undefined) continue;
    if (cmpQuantity(total, podLim) > 0) {
      errs.push(invalid(p.child('limits').key(k), formatQuantity(podLim), `must be greater than or equal to aggregate container limits of ${formatQuantity(total)}`));
    }
  }
  containers.forEach((c, i) => {
    for (const [k, v] of Object.entries(c.resources?.limits ?? {})) {
      const podLim = res.limits?.[k];
      if (podLim === undefined) continue;
      const [cq, pq] = [parseQuantity(v), parseQuantity(podLim)];
      if (cq !== undefined && pq !== undefined && cmpQuantity(cq, pq) > 0) {
        errs.push(invalid(p.child('containers').index(i).key(k).child('limits'), formatQuantity(cq), `must be less than or equal to pod limits of ${formatQuantity(pq)}`));
      }
    }
  });
  return errs;
}
