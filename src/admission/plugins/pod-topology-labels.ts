// PodTopologyLabels (PodTopologyLabelsAdmission, beta and on in v1.36): a pod bound to a node, at
// creation with spec.nodeName or through pods/binding, gets the node's zone and region labels.
// Counterpart of plugin/pkg/admission/podtopologylabels.
import type { KubeObject, WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import { type Plugin, onResources } from '../interfaces.ts';

const TOPOLOGY_LABELS = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'];

/** A node by name; undefined when it does not exist. */
export type NodeGetter = (name: string) => Promise<KubeObject | undefined>;

export function podTopologyLabels(getNode: NodeGetter): Plugin {
  const copy = async (target: KubeObject, nodeName: string): Promise<void> => {
    const node = await getNode(nodeName);
    const labels = Object.entries(node?.metadata.labels ?? {}).filter(([k]) => TOPOLOGY_LABELS.includes(k));
    if (labels.length > 0) target.metadata.labels = { ...target.metadata.labels, ...Object.fromEntries(labels) };
  };
  return {
    name: 'PodTopologyLabels',
    resources: onResources('/pods'),
    handles: (op) => op === 'CREATE',
    async admit(_ctx, a) {
      if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.object === undefined) return;
      if (a.subresource === '') {
        const nodeName = (a.object as WireObject<corev1.Pod>).spec?.nodeName ?? '';
        if (nodeName !== '') await copy(a.object, nodeName);
      } else if (a.subresource === 'binding') {
        const target = (a.object as WireObject<corev1.Binding>).target;
        if (target?.kind === 'Node') await copy(a.object, target.name ?? '');
      }
    },
  };
}
