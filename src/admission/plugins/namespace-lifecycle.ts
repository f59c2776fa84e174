// NamespaceLifecycle: no new objects in a missing or terminating namespace, and the system
// namespaces cannot be deleted.
import { newForbidden, newNotFound } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';

export const IMMORTAL_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public'];

/** Reads a namespace; resolves undefined when it does not exist. */
export type NamespaceLookup = (name: string) => Promise<KubeObject | undefined>;

export function namespaceLifecycle(lookup: NamespaceLookup): Plugin {
  return {
    name: 'NamespaceLifecycle',
    handles: (op: Operation) => op === 'CREATE' || op === 'DELETE',
    async validate(_ctx: RequestContext, a: Attributes): Promise<void> {
      const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces';
      if (a.operation === 'DELETE') {
        if (isNamespace && a.subresource === '' && IMMORTAL_NAMESPACES.includes(a.name)) {
          throw newForbidden({ group: '', resource: 'namespaces' }, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (a.namespace === '' || isNamespace) return;
      // Events and subresources like pods/binding of a terminating namespace are still allowed in kube
      // only for specific cases; creation of new content is what is refused.
      const ns = await lookup(a.namespace);
      if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
      const phase = (ns as KubeObject & { status?: { phase?: string } }).status?.phase;
      if (phase === 'Terminating' && !(a.resource.group === '' && a.resource.resource === 'events')) {
        const err = newForbidden({ group: a.resource.group, resource: a.resource.resource }, a.name,
          `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        err.status.details = { ...err.status.details, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] };
        throw err;
      }
    },
  };
}

