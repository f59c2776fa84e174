// DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for 300 seconds
// unless they say otherwise.
// Counterpart of plugin/pkg/admission/defaulttolerationseconds.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import { createdPodSpec } from './pod-create.ts';

interface Toleration { key?: string; operator?: string; effect?: string; tolerationSeconds?: number }
interface PodLike extends KubeObject { spec?: { tolerations?: Toleration[] } }

const TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

export function defaultTolerationSeconds(seconds = 300): Plugin {
  return {
    name: 'DefaultTolerationSeconds',
    // on updates too, as kube: an update that drops them gets them back
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      const target = createdPodSpec<NonNullable<PodLike['spec']>>(a.operation === 'UPDATE' ? { ...a, operation: 'CREATE' } : a);
      if (target === undefined) return Promise.resolve();
      const { spec } = target;
      const tolerations = spec.tolerations ?? [];
      // A toleration with no key and operator Exists tolerates every taint already.
      const tolerates = (key: string): boolean => tolerations.some((t) =>
        (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') &&
        ((t.key === undefined || t.key === '') ? t.operator === 'Exists' : t.key === key));
      for (const key of TAINTS) {
        if (!tolerates(key)) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
      }
      if (tolerations.length > 0) spec.tolerations = tolerations;
      return Promise.resolve();
    },
  };
}
