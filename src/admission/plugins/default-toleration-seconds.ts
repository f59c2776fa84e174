// DefaultTolerationSeconds: pods tolerate not-ready and unreachable nodes for 300 seconds (or
// --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds) unless they
// say otherwise.
// Counterpart of plugin/pkg/admission/defaulttolerationseconds.
import type { corev1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { type Attributes, type Operation, type Plugin, onResources } from '../interfaces.ts';
import { createdPodSpec } from './pod-create.ts';

export function defaultTolerationSeconds(notReadySeconds = 300, unreachableSeconds = 300): Plugin {
  const taints: [string, number][] = [['node.kubernetes.io/not-ready', notReadySeconds], ['node.kubernetes.io/unreachable', unreachableSeconds]];
  return {
    name: 'DefaultTolerationSeconds',
    resources: onResources('/pods'),
    // on updates too, as kube: an update that drops them gets them back
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      const target = createdPodSpec<corev1.PodSpec>(a.operation === 'UPDATE' ? { ...a, operation: 'CREATE' } : a);
      if (target === undefined) return Promise.resolve();
      const { spec } = target;
      const tolerations: corev1.Toleration[] = spec.tolerations ?? [];
      // A toleration with no key and operator Exists tolerates every taint already.
      const tolerates = (key: string): boolean => tolerations.some((t) =>
        (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') &&
        ((t.key === undefined || t.key === '') ? t.operator === 'Exists' : t.key === key));
      for (const [key, seconds] of taints) {
        if (!tolerates(key)) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
      }
      if (tolerations.length > 0) spec.tolerations = tolerations;
      return Promise.resolve();
    },
  };
}
