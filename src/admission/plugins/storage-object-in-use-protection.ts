// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection):
// every claim, volume and VolumeAttributesClass created carries the finalizer that keeps it while
// in use; the pvc-protection, pv-protection and vac-protection controllers remove it once it is not.
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { type Attributes, type Operation, type Plugin, onResources } from '../interfaces.ts';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
export const VAC_PROTECTION_FINALIZER = 'kubernetes.io/vac-protection';

/** The finalizer of each protected resource, by `<group>/<resource>`. */
const FINALIZERS: ReadonlyMap<string, string> = new Map([
  ['/persistentvolumeclaims', PVC_PROTECTION_FINALIZER],
  ['/persistentvolumes', PV_PROTECTION_FINALIZER],
  // The VolumeAttributesClass feature gate is GA (locked on) in v1.36.
  ['storage.k8s.io/volumeattributesclasses', VAC_PROTECTION_FINALIZER],
]);

export function storageObjectInUseProtection(): Plugin {
  return {
    name: 'StorageObjectInUseProtection',
    resources: onResources(...FINALIZERS.keys()),
    handles: (op: Operation) => op === 'CREATE',
    admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.operation !== 'CREATE' || a.subresource !== '' || a.object === undefined) return Promise.resolve();
      const finalizer = FINALIZERS.get(`${a.resource.group}/${a.resource.resource}`);
      if (finalizer === undefined) return Promise.resolve();
      const meta = a.object.metadata;
      if (!(meta.finalizers ?? []).includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
      return Promise.resolve();
    },
  };
}
