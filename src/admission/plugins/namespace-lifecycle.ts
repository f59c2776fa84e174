// NamespaceLifecycle: no new objects in a missing or terminating namespace, and the system
// namespaces cannot be deleted.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle.
import { newForbidden, newNotFound } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';

export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** Reads a namespace; resolves undefined when it does not exist. */
export type NamespaceLookup = (name: string) => Promise<KubeObject | undefined>;

export function namespaceLifecycle(lookup: NamespaceLookup): Plugin {
  return {
    name: 'NamespaceLifecycle',
    handles: (op: Operation) => op === 'CREATE' || op === 'DELETE',
    // A mutating plugin in kube: it refuses before mutating webhooks are called.
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces';
      if (a.operation === 'DELETE') {
        if (isNamespace && a.subresource === '' && IMMORTAL_NAMESPACES.includes(a.name)) {
          throw newForbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (a.namespace === '' || isNamespace) return;
      // Access reviews answer in any namespace: a NotFound would tell which namespaces exist.
      if (a.resource.group === 'authorization.k8s.io' && a.resource.resource === 'localsubjectaccessreviews') return;
      const ns = await lookup(a.namespace);
      if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
      const phase = (ns as WireObject<corev1.Namespace>).status?.phase;
      // Every kind, events included, is refused in a terminating namespace.
      if (phase === 'Terminating') {
        const err = newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name,
          `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] };
        throw err;
      }
    },
  };
}

