// RuntimeClass admission for pods: a pod naming a RuntimeClass gets the class's pod overhead
// (refused when it already has a different one) and its scheduling constraints (node selector
// merged, refused on a conflicting value; tolerations merged); validation then checks the
// overhead matches the class, so a pod cannot carry an overhead of its own.
// Counterpart of plugin/pkg/admission/runtimeclass.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1, nodev1 } from '../../generated/types/index.gen.ts';
import { type Attributes, type Plugin, onResources } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';
import { cmpQuantity, parseQuantity } from './resource-quota-quantity.ts';
import { mergeTolerations } from './tolerations.ts';

export type RuntimeClassLike = WireObject<nodev1.RuntimeClass>;
type PodSpec = corev1.PodSpec;

/** A RuntimeClass by name; undefined when it does not exist. */
export type RuntimeClassGetter = (name: string) => Promise<RuntimeClassLike | undefined>;

/** apiequality.Semantic.DeepEqual of two ResourceLists: nil equals empty, quantities compare by value. */
export function resourceListsEqual(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => {
    const y = b?.[k];
    if (y === undefined) return false;
    const qa = parseQuantity(a?.[k] ?? '');
    const qb = parseQuantity(y);
    return qa !== undefined && qb !== undefined ? cmpQuantity(qa, qb) === 0 : a?.[k] === y;
  });
}

const podSpecOf = (a: Attributes): PodSpec | undefined =>
  a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === '' && a.object !== undefined
    ? ((a.object as WireObject<corev1.Pod>).spec ??= {} as PodSpec) : undefined;

export function runtimeClassAdmission(get: RuntimeClassGetter): Plugin {
  const forbid = (a: Attributes, msg: string): Error => newForbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), msg);
  const prepare = async (a: Attributes): Promise<{ spec: PodSpec; rc: RuntimeClassLike | undefined } | undefined> => {
    const spec = podSpecOf(a);
    if (spec === undefined) return undefined;
    if (spec.runtimeClassName === undefined) return { spec, rc: undefined };
    const rc = await get(spec.runtimeClassName);
    if (rc === undefined) throw forbid(a, `pod rejected: RuntimeClass "${spec.runtimeClassName}" not found`);
    return { spec, rc };
  };
  return {
    name: 'RuntimeClass',
    resources: onResources('/pods'),
    handles: (op) => op === 'CREATE',
    async admit(_ctx, a) {
      const p = await prepare(a);
      if (p?.rc === undefined) return;
      const { spec, rc } = p;
      const fixed = rc.overhead?.podFixed;
      if (rc.overhead !== undefined) {
        if (Object.keys(spec.overhead ?? {}).length > 0 && !resourceListsEqual(fixed, spec.overhead)) {
          throw forbid(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
        }
        if (fixed === undefined) delete spec.overhead;
        else spec.overhead = { ...fixed };
      }
      const sched = rc.scheduling;
      if (sched === undefined) return;
      let selector = spec.nodeSelector;
      if (selector === undefined) {
        selector = sched.nodeSelector === undefined ? undefined : { ...sched.nodeSelector };
      } else {
        for (const [k, v] of Object.entries(sched.nodeSelector ?? {})) {
          const podValue = selector[k];
          if (podValue !== undefined && podValue !== v) {
            throw forbid(a, `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${podValue}`);
          }
          selector[k] = v;
        }
      }
      const tolerations = mergeTolerations(spec.tolerations ?? [], sched.tolerations ?? []);
      if (selector === undefined) delete spec.nodeSelector;
      else spec.nodeSelector = selector;
      if (tolerations.length === 0) delete spec.tolerations;
      else spec.tolerations = tolerations;
    },
    async validate(_ctx, a) {
      const p = await prepare(a);
      if (p === undefined) return;
      const { spec, rc } = p;
      if (rc?.overhead !== undefined) {
        if (!resourceListsEqual(rc.overhead.podFixed, spec.overhead)) throw forbid(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      } else if (spec.overhead !== undefined) {
        throw forbid(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
      }
    },
  };
}
