// PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize): a claim's
// storage request may grow only once it is bound, and only when its StorageClass (the same before
// and after) allows volume expansion.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { type Attributes, type Operation, type Plugin, onResources } from '../interfaces.ts';
import { cmpQuantity, parseQuantity, ZERO, type Quantity } from './resource-quota-quantity.ts';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

interface ClaimLike extends KubeObject {
  spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, string | number> } };
  status?: { phase?: string };
}

/** The StorageClass by name (undefined when missing). */
export type StorageClassGetter = (name: string) => Promise<(KubeObject & { allowVolumeExpansion?: boolean }) | undefined>;

/** apihelper.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
const claimClass = (c: ClaimLike): string => c.metadata.annotations?.[BETA_STORAGE_CLASS] ?? c.spec?.storageClassName ?? '';
const requested = (c: ClaimLike): Quantity => parseQuantity(c.spec?.resources?.requests?.['storage'] ?? 0) ?? ZERO;

export function persistentVolumeClaimResize(getClass: StorageClassGetter): Plugin {
  return {
    name: 'PersistentVolumeClaimResize',
    resources: onResources('/persistentvolumeclaims'),
    handles: (op: Operation) => op === 'UPDATE',
    async validate(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.resource.group !== '' || a.resource.resource !== 'persistentvolumeclaims' || a.subresource !== '') return;
      const pvc = a.object as ClaimLike | undefined;
      const old = a.oldObject as ClaimLike | undefined;
      if (pvc === undefined || old === undefined || cmpQuantity(requested(pvc), requested(old)) <= 0) return;
      const refuse = (msg: string): never => { throw newForbidden({ group: '', resource: 'persistentvolumeclaims' }, pvc.metadata.name ?? '', msg); };
      if (old.status?.phase !== 'Bound') refuse('Only bound persistent volume claims can be expanded');
      const cls = claimClass(pvc);
      const allowed = cls !== '' && cls === claimClass(old) && (await getClass(cls))?.allowVolumeExpansion === true;
      if (!allowed) refuse('only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    },
  };
}
