// The vac-protection controller (pkg/controller/volume/vacprotection), run in-process: a
// VolumeAttributesClass being deleted keeps its kubernetes.io/vac-protection finalizer (added by
// StorageObjectInUseProtection) while a volume or a claim refers to it, and loses it once none does.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { VAC_PROTECTION_FINALIZER } from '../admission/plugins/storage-object-in-use-protection.ts';
import type { ControllerOptions } from '../client/controller.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { corev1 } from '../generated/types/index.gen.ts';
import { ProtectionController } from './protection-controller.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';

type ClaimObject = KubeObject & Pick<corev1.PersistentVolumeClaim, 'spec' | 'status'>;
type VolumeObject = KubeObject & Pick<corev1.PersistentVolume, 'spec'>;

/** The classes a claim refers to: asked for, current, and the target of a modification under way. */
export function claimClassNames(pvc: ClaimObject): string[] {
  const names = [pvc.spec?.volumeAttributesClassName, pvc.status?.currentVolumeAttributesClassName,
    pvc.status?.modifyVolumeStatus?.targetVolumeAttributesClassName];
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))];
}

/** The class a volume refers to. */
export function volumeClassNames(pv: VolumeObject): string[] {
  const n = pv.spec?.volumeAttributesClassName;
  return typeof n === 'string' && n !== '' ? [n] : [];
}

export class VACProtectionController extends ProtectionController {
  private readonly claims: SharedInformer;
  private readonly volumes: SharedInformer;

  constructor(classes: ResourceStore<KubeObject>, claims: ResourceStore<KubeObject>, volumes: ResourceStore<KubeObject>,
    opts: ControllerOptions = {}) {
    super(classes, 'volumeattributesclasses', VAC_PROTECTION_FINALIZER, 'vac-protection controller', opts);
    // A reference dropped (by an update or a delete) may free a class that waits to go; kube looks
    // at updates and deletes only, as a new reference cannot free anything.
    const dropped = (refs: (o: KubeObject) => string[]) => ({
      onUpdate: (old: KubeObject, cur: KubeObject) => { const now = new Set(refs(cur)); this.requeue(refs(old).filter((n) => !now.has(n))); },
      onDelete: (o: KubeObject) => this.requeue(refs(o)),
    });
    this.claims = this.follow(claims, 'persistentvolumeclaims', dropped((o) => claimClassNames(o as ClaimObject)));
    this.volumes = this.follow(volumes, 'persistentvolumes', dropped((o) => volumeClassNames(o as VolumeObject)));
  }

  private requeue(names: readonly string[]): void {
    for (const n of names) if (this.objects.indexer.getByKey(n) !== undefined) this.queue.add(n);
  }

  /** isBeingUsed: any volume or claim the informers hold that refers to the class. */
  protected inUse(vac: KubeObject): Promise<boolean> {
    const name = vac.metadata.name ?? '';
    return Promise.resolve(this.volumes.indexer.list().some((pv) => volumeClassNames(pv as VolumeObject).includes(name)) ||
      this.claims.indexer.list().some((pvc) => claimClassNames(pvc as ClaimObject).includes(name)));
  }
}
