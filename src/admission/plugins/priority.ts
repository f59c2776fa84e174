// Priority admission: a pod's priority comes from its PriorityClass (or the global default, or
// 0), and naming a class that does not exist is refused.
// Counterpart of plugin/pkg/admission/priority.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import { createdPodSpec } from './pod-create.ts';

export interface PriorityClassInfo { readonly name: string; readonly value: number; readonly preemptionPolicy?: string; readonly globalDefault?: boolean }

/** The class, undefined when missing; and the global default class, if any. */
export interface PriorityClassLookup {
  get(name: string): Promise<PriorityClassInfo | undefined>;
  globalDefault(): Promise<PriorityClassInfo | undefined>;
}

export function priorityAdmission(classes: PriorityClassLookup): Plugin {
  return {
    name: 'Priority',
    handles: (op: Operation) => op === 'CREATE',
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      const created = createdPodSpec<corev1.PodSpec>(a);
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
  };
}
