// PodResizeValidator: a resize (pods/resize) of a pod on a node must fit the node: only Linux
// nodes resize, and the pod's new requests must be within the node's allocatable CPU and memory.
// The refusal carries a cause naming why (UnsupportedPlatform, NodeCapacity), as kube's.
// Counterpart of plugin/pkg/admission/podresize.
import { newForbidden, StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { type Attributes, type Plugin, onResources } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';
import type { NodeGetter } from './pod-topology-labels.ts';
import { podResources, type PodLike } from './resource-quota-pods.ts';
import { cmpQuantity, parseQuantity, ZERO, type Quantity } from './resource-quota-quantity.ts';

const milli = (q: Quantity): bigint => (q.nano + 999_999n) / 1_000_000n;
const value = (q: Quantity): bigint => (q.nano + 999_999_999n) / 1_000_000_000n;

function refuse(a: Attributes, message: string, cause?: string): StatusError {
  const err = newForbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), message);
  if (cause === undefined) return err;
  return new StatusError({ ...err.status, details: { ...err.status.details, causes: [{ reason: cause }] } });
}

export function podResizeValidator(getNode: NodeGetter): Plugin {
  return {
    name: 'PodResizeValidator',
    resources: onResources('/pods'),
    handles: (op) => op === 'UPDATE',
    async validate(_ctx, a) {
      if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== 'resize' || a.object === undefined) return;
      const pod = a.object as PodLike & { spec?: { nodeName?: string } };
      const nodeName = pod.spec?.nodeName ?? '';
      if (nodeName === '' || a.oldObject?.metadata.generation === pod.metadata.generation) return;
      const node = await getNode(nodeName) as (KubeObject & { status?: { allocatable?: Record<string, string> } }) | undefined;
      if (node === undefined) throw refuse(a, `node "${nodeName}" not found`);
      const os = node.metadata.labels?.['kubernetes.io/os'];
      if (os !== undefined && os !== 'linux') {
        throw refuse(a, `pod resize is only supported on linux nodes, node "${nodeName}" is "${os}"`, 'UnsupportedPlatform');
      }
      const requests = podResources(pod, 'requests');
      const allocatable = (name: string): Quantity => parseQuantity(node.status?.allocatable?.[name] ?? '0') ?? ZERO;
      const msg: string[] = [];
      const cpu = requests.get('cpu') ?? ZERO;
      if (cmpQuantity(cpu, allocatable('cpu')) > 0) msg.push(`cpu, requested: ${milli(cpu)}, allocatable: ${milli(allocatable('cpu'))}`);
      const mem = requests.get('memory') ?? ZERO;
      if (cmpQuantity(mem, allocatable('memory')) > 0) msg.push(`memory, requested: ${value(mem)}, allocatable: ${value(allocatable('memory'))}`);
      if (msg.length > 0) throw refuse(a, `node didn't have enough allocatable resources: ${msg.join('; ')}`, 'NodeCapacity');
    },
  };
}
