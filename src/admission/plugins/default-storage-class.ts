// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault): a claim created
// without a class (neither spec.storageClassName nor the beta annotation) gets the default
// StorageClass, the newest one when several are marked.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { type Attributes, type Operation, type Plugin, onResources } from '../interfaces.ts';
import { newestDefault } from './default-class.ts';

export const IS_DEFAULT_STORAGE_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const BETA_IS_DEFAULT_STORAGE_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';
/** core.BetaStorageClassAnnotation: a claim naming its class the old way. */
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** Every StorageClass. */
export type StorageClassLister = () => Promise<readonly KubeObject[]>;

type Claim = KubeObject & Pick<corev1.PersistentVolumeClaim, 'spec'>;

/** storageutil.IsDefaultAnnotation. */
export function isDefaultStorageClass(c: KubeObject): boolean {
  const ann = c.metadata.annotations ?? {};
  return ann[IS_DEFAULT_STORAGE_CLASS] === 'true' || ann[BETA_IS_DEFAULT_STORAGE_CLASS] === 'true';
}

export function defaultStorageClass(list: StorageClassLister): Plugin {
  return {
    name: 'DefaultStorageClass',
    resources: onResources('/persistentvolumeclaims'),
    handles: (op: Operation) => op === 'CREATE',
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      if (a.operation !== 'CREATE' || a.subresource !== '' || a.resource.group !== '' ||
          a.resource.resource !== 'persistentvolumeclaims' || a.object === undefined) return;
      const pvc = a.object as Claim;
      // An empty storageClassName asks for no class at all; it is left alone too.
      if (pvc.spec?.storageClassName !== undefined || pvc.metadata.annotations?.[BETA_STORAGE_CLASS] !== undefined) return;
      const def = newestDefault(await list(), isDefaultStorageClass);
      if (def === undefined) return;
      pvc.spec = { ...pvc.spec, storageClassName: def.metadata.name ?? '' };
    },
  };
}
