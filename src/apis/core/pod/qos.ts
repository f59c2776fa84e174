// The pod's QoS class (pkg/apis/core/helper/qos.ComputePodQOS), stored in status.qosClass on create.
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { parseQuantity } from '../v1/quantity.ts';
import type { Pod, ResourceList } from '../v1/types.ts';

const SUPPORTED = ['cpu', 'memory'];

export function podQOSClass(pod: DeepReadonly<Pod>): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const requests: Record<string, number> = {};
  const limits: Record<string, number> = {};
  let isGuaranteed = true;
  const add = (into: Record<string, number>, list: DeepReadonly<ResourceList> | undefined): string[] => {
    const seen: string[] = [];
    for (const [name, q] of Object.entries(list ?? {})) {
      if (!SUPPORTED.includes(name)) continue;
      const v = parseQuantity(q) ?? 0;
      if (v === 0) continue;
      seen.push(name);
      into[name] = (into[name] ?? 0) + v;
    }
    return seen;
  };
  const podLevel = pod.spec.resources;
  if (podLevel !== undefined && podLevel !== null) {
    // PodLevelResources (on in v1.36): pod-level resources alone decide the class
    add(requests, podLevel.requests);
    if (Object.keys(podLevel.limits ?? {}).length > 0 && !SUPPORTED.every((r) => add(limits, podLevel.limits).includes(r))) isGuaranteed = false;
  } else {
    for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
      add(requests, c.resources?.requests);
      const withLimits = add(limits, c.resources?.limits);
      if (!SUPPORTED.every((r) => withLimits.includes(r))) isGuaranteed = false;
    }
  }
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, v] of Object.entries(requests)) if (limits[name] !== v) { isGuaranteed = false; break; }
  }
  if (isGuaranteed && Object.keys(requests).length === Object.keys(limits).length) return 'Guaranteed';
  return 'Burstable';
}
