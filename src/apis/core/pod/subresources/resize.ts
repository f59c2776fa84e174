// pods/resize (podResizeStrategy): a Pod whose only accepted change is the resources (and
// resizePolicy) of its containers and sidecars; the QoS class must stay what it was.
// Counterpart of pkg/registry/core/pod/strategy.go (podResizeStrategy).
import { fieldPath, forbidden, invalid, type FieldError } from '../../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, Strategy } from '../../../../registry/rest/strategy.ts';
import type { Container, Pod } from '../../v1/types.ts';
import { podStrategy } from '../pod.ts';
import { podQOSClass } from '../qos.ts';
import { keepOnly } from './ephemeral-containers.ts';

type Resizable = Container & { resizePolicy?: unknown };

/** Copies resources and resizePolicy of each container (by name) from the request. */
function takeResources(into: Container[] | undefined, from: readonly Container[] | undefined, only?: (c: Container) => boolean): void {
  for (const c of into ?? []) {
    if (only !== undefined && !only(c)) continue;
    const src = (from ?? []).find((f) => f.name === c.name) as Resizable | undefined;
    if (src === undefined) continue;
    const dst = c as Resizable;
    if (src.resources === undefined) delete dst.resources; else dst.resources = structuredClone(src.resources);
    if (src.resizePolicy === undefined) delete dst.resizePolicy; else dst.resizePolicy = structuredClone(src.resizePolicy);
  }
}

const RESIZABLE = new Set(['cpu', 'memory']);

/** ValidatePodResize: only cpu and memory change, and the QoS class stays. */
export function validatePodResize(pod: DeepReadonly<Pod>, old: DeepReadonly<Pod>): FieldError[] {
  const errs: FieldError[] = [];
  const specPath = fieldPath('spec');
  const check = (list: readonly DeepReadonly<Container>[] | undefined, prev: readonly DeepReadonly<Container>[] | undefined, field: string): void => {
    (list ?? []).forEach((c, i) => {
      const o = (prev ?? []).find((p) => p.name === c.name);
      if (o === undefined) return;
      for (const part of ['requests', 'limits'] as const) {
        const now = c.resources?.[part] ?? {};
        const before = o.resources?.[part] ?? {};
        for (const k of new Set([...Object.keys(now), ...Object.keys(before)])) {
          if (!RESIZABLE.has(k) && !deepEqual(now[k], before[k])) {
            errs.push(forbidden(specPath.child(field).index(i).child('resources', part, k), 'only cpu and memory resources are mutable'));
          }
        }
      }
    });
  };
  check(pod.spec.containers, old.spec.containers, 'containers');
  check(pod.spec.initContainers, old.spec.initContainers, 'initContainers');
  const before = old.status?.qosClass ?? podQOSClass(old as Pod);
  const after = podQOSClass(pod as Pod);
  if (after !== before) errs.push(invalid(fieldPath('spec'), after, 'Pod QOS Class may not change as a result of resizing'));
  return errs;
}

export const podResizeStrategy: Strategy<Pod> = {
  ...podStrategy,
  prepareForUpdate(_ctx, pod, old) {
    keepOnly(pod, old, (next) => {
      takeResources(next.spec.containers, pod.spec.containers);
      takeResources(next.spec.initContainers, pod.spec.initContainers, (c) => c.restartPolicy === 'Always');
    });
  },
  validateUpdate: (_ctx, pod, old) => validatePodResize(pod, old),
};
