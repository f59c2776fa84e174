// The pv-protection controller (pkg/controller/volume/pvprotection), run in-process: a volume
// being deleted keeps its kubernetes.io/pv-protection finalizer while it is Bound.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { PersistentVolume } from '../apis/core/v1/types.ts';
import { PV_PROTECTION_FINALIZER } from '../admission/plugins/storage-object-in-use-protection.ts';
import type { ControllerOptions } from '../client/controller.ts';
import { ProtectionController } from './protection-controller.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

export class PVProtectionController extends ProtectionController {
  constructor(volumes: ResourceStore<KubeObject>, opts: ControllerOptions = {}) {
    super(volumes, 'persistentvolumes', PV_PROTECTION_FINALIZER, 'pv-protection controller', opts);
  }

  /** isBeingUsed: a Bound volume is in use; its status changing brings it back here. */
  protected inUse(pv: KubeObject): Promise<boolean> {
    return Promise.resolve((pv as PersistentVolume).status?.phase === 'Bound');
  }
}
