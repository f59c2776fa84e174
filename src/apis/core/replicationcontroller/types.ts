// Wire shape of core/v1 ReplicationController (kept here: the core types file is not ours).
// Counterpart of k8s.io/api/core/v1 (ReplicationController).
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { PodTemplateSpec } from '../v1/types.ts';

export interface ReplicationControllerSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: Record<string, string>;
  template?: PodTemplateSpec;
}
export interface ReplicationControllerStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }[];
}
export interface ReplicationController {
  apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: ReplicationControllerSpec; status?: ReplicationControllerStatus;
}
