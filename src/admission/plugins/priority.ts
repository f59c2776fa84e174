// Priority admission: a pod's priority comes from its PriorityClass (or the global default, or
// 0), and naming a class that does not exist is refused; a second global default class is refused.
// Counterpart of plugin/pkg/admission/priority.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1, schedulingv1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import { createdPodSpec } from './pod-create.ts';

export interface PriorityClassInfo { readonly name: string; readonly value: number; readonly preemptionPolicy?: string; readonly globalDefault?: boolean }

/** The class, undefined when missing; and the global default class, if any. */
export interface PriorityClassLookup {
  get(name: string): Promise<PriorityClassInfo | undefined>;
  globalDefault(): Promise<PriorityClassInfo | undefined>;
}

type PodLike = WireObject<corev1.Pod>;

/**
 * The priority set at creation stays when an update leaves it out (a PUT of the pod as written):
 * validation forbids changing it, so only an omission is filled in.
 */
function keepPriorityOnUpdate(a: Attributes): void {
  if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '') return;
  const spec = (a.object as PodLike | undefined)?.spec;
  const old = (a.oldObject as PodLike | undefined)?.spec;
  if (spec === undefined || old === undefined) return;
  if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
  if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
}

export function priorityAdmission(classes: PriorityClassLookup): Plugin {
  return {
    name: 'Priority',
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.operation === 'UPDATE') { keepPriorityOnUpdate(a); return; }
      const created = createdPodSpec<NonNullable<PodLike['spec']>>(a);
      if (created === undefined) return;
      const { pod, spec } = created;
      const name = spec.priorityClassName ?? '';
      const pc = name === '' ? await classes.globalDefault() : await classes.get(name);
      if (pc === undefined && name !== '') {
        throw newForbidden({ group: '', resource: 'pods' }, pod.metadata.name ?? '', `no PriorityClass with name ${name} was found`);
      }
      if (pc !== undefined && name === '') spec.priorityClassName = pc.name;
      const value = pc?.value ?? 0;
      if (spec.priority !== undefined && spec.priority !== value) {
        throw newForbidden({ group: '', resource: 'pods' }, pod.metadata.name ?? '',
          'the integer value of priority must not be provided in pod spec; priority admission controller computed ' +
          `${value} from the given PriorityClass name`);
      }
      spec.priority = value;
      spec.preemptionPolicy ??= pc?.preemptionPolicy ?? 'PreemptLowerPriority';
    },
    // validatePriorityClass: one global default only (a class may stay or become it when it is the one).
    async validate(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.resource.group !== 'scheduling.k8s.io' || a.resource.resource !== 'priorityclasses' || a.subresource !== '') return;
      const pc = a.object as WireObject<schedulingv1.PriorityClass> | undefined;
      if (pc?.globalDefault !== true) return;
      const current = await classes.globalDefault();
      if (current === undefined || (a.operation === 'UPDATE' && current.name === pc.metadata.name)) return;
      throw newForbidden({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, pc.metadata.name ?? '',
        `PriorityClass ${current.name} is already marked as default. Only one default can exist`);
    },
  };
}
