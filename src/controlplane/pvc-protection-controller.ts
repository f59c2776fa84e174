// The pvc-protection controller (pkg/controller/volume/pvcprotection), run in-process because
// kapi has no kube-controller-manager: a claim being deleted keeps its kubernetes.io/pvc-protection
// finalizer while a scheduled pod uses it, and loses it (and so goes) once none does.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { PVC_PROTECTION_FINALIZER } from '../admission/plugins/storage-object-in-use-protection.ts';
import type { ControllerOptions } from '../client/controller.ts';
import { ProtectionController } from './protection-controller.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { corev1 } from '../generated/types/index.gen.ts';

/** A stored pod, read through the generated wire type of its spec. */
export type PodObject = KubeObject & Pick<corev1.Pod, 'spec'>;

/** podIsShutDown: kubelet is done with it, or it was force-deleted. */
function podIsShutDown(pod: PodObject): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionGracePeriodSeconds === 0;
}

/** Whether a generic ephemeral volume's claim is the pod's own (ephemeral.VolumeIsForPod). */
function ownedBy(pvc: KubeObject, pod: PodObject): boolean {
  return (pvc.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);
}

/** podUsesPVC: only a scheduled pod counts, as kubelet sees no other. */
export function podUsesPVC(pod: PodObject, pvc: KubeObject): boolean {
  if ((pod.spec?.nodeName ?? '') === '') return false;
  const name = pvc.metadata.name ?? '';
  return (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === name ||
    (v.ephemeral !== undefined && !podIsShutDown(pod) && `${pod.metadata.name ?? ''}-${v.name}` === name && ownedBy(pvc, pod)));
}

export class PVCProtectionController extends ProtectionController {
  constructor(claims: ResourceStore<KubeObject>, private readonly pods: ResourceStore<KubeObject>, opts: ControllerOptions = {}) {
    super(claims, 'persistentvolumeclaims', PVC_PROTECTION_FINALIZER, 'pvc-protection controller', opts);
    // A pod going away (or changing) may free the claims of its namespace that wait to go.
    const podChanged = (pod: KubeObject): void => { for (const key of this.terminatingIn(pod.metadata.namespace ?? '')) this.queue.add(key); };
    this.follow(pods, 'pods', { onAdd: podChanged, onUpdate: (_old, pod) => podChanged(pod), onDelete: podChanged });
  }

  /** Read from storage, not the pod informer: a pod created a moment ago must keep its claim. */
  protected async inUse(pvc: KubeObject): Promise<boolean> {
    const pods = await this.pods.list(systemContext(pvc.metadata.namespace ?? ''), {});
    return pods.items.some((p) => podUsesPVC(p, pvc));
  }
}

