// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection):
// every claim and volume created carries the finalizer that keeps it while in use; the
// pvc-protection and pv-protection controllers remove it once it is not.
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { type Attributes, type Operation, type Plugin, onResources } from '../interfaces.ts';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

export function storageObjectInUseProtection(): Plugin {
  return {
    name: 'StorageObjectInUseProtection',
    resources: onResources('/persistentvolumeclaims', '/persistentvolumes'),
    handles: (op: Operation) => op === 'CREATE',
    admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.operation !== 'CREATE' || a.subresource !== '' || a.resource.group !== '' || a.object === undefined) return Promise.resolve();
      const finalizer = a.resource.resource === 'persistentvolumeclaims' ? PVC_PROTECTION_FINALIZER
        : a.resource.resource === 'persistentvolumes' ? PV_PROTECTION_FINALIZER : undefined;
      if (finalizer === undefined) return Promise.resolve();
      const meta = a.object.metadata;
      if (!(meta.finalizers ?? []).includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
      return Promise.resolve();
    },
  };
}
