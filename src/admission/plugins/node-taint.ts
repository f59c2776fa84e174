// TaintNodesByCondition: a node is created with the not-ready NoSchedule taint, so that nothing
// is scheduled on it before the node controller sees it ready and removes the taint.
// Counterpart of plugin/pkg/admission/nodetaint.
import type { WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import { type Attributes, type Plugin, onResources } from '../interfaces.ts';

const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

type NodeLike = WireObject<corev1.Node>;

export function taintNodesByCondition(): Plugin {
  return {
    name: 'TaintNodesByCondition',
    resources: onResources('/nodes'),
    handles: (op) => op === 'CREATE',
    admit(_ctx, a: Attributes): Promise<void> {
      if (a.resource.group !== '' || a.resource.resource !== 'nodes' || a.subresource !== '' || a.object === undefined) return Promise.resolve();
      const node = a.object as NodeLike;
      const spec = node.spec ??= {};
      // MatchTaint: same key and effect, whatever the value.
      if (!(spec.taints ?? []).some((t) => t.key === NOT_READY.key && t.effect === NOT_READY.effect)) {
        spec.taints = [...spec.taints ?? [], { ...NOT_READY }];
      }
      return Promise.resolve();
    },
  };
}
