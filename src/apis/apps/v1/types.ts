// Wire shapes (JSON) of the apps/v1 kinds, limited to the fields the server reads or writes.
// Unknown fields still round-trip: objects are stored as decoded JSON.
// Counterpart of k8s.io/api/apps/v1.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { IntOrString, PersistentVolumeClaim, PodTemplateSpec } from '../../core/v1/types.ts';

export type { LabelSelector };

/** The condition shape every apps status shares. */
export interface WorkloadCondition {
  type: string; status: string; lastUpdateTime?: string; lastTransitionTime?: string; reason?: string; message?: string;
}

// ---- Deployment ----
export interface RollingUpdateDeployment { maxUnavailable?: IntOrString; maxSurge?: IntOrString }
export interface DeploymentStrategy { type?: string; rollingUpdate?: RollingUpdateDeployment }
export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelector | null;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  terminatingReplicas?: number;
  conditions?: WorkloadCondition[];
  collisionCount?: number;
}
export interface Deployment { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: DeploymentSpec; status?: DeploymentStatus }

// ---- ReplicaSet ----
export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector | null;
  template: PodTemplateSpec;
}
export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: WorkloadCondition[];
}
export interface ReplicaSet { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: ReplicaSetSpec; status?: ReplicaSetStatus }

// ---- StatefulSet ----
export interface RollingUpdateStatefulSetStrategy { partition?: number; maxUnavailable?: IntOrString }
export interface StatefulSetUpdateStrategy { type?: string; rollingUpdate?: RollingUpdateStatefulSetStrategy }
export interface StatefulSetPersistentVolumeClaimRetentionPolicy { whenDeleted?: string; whenScaled?: string }
export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector | null;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: StatefulSetPersistentVolumeClaimRetentionPolicy;
  ordinals?: { start?: number };
}
export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: WorkloadCondition[];
  availableReplicas?: number;
}
export interface StatefulSet { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: StatefulSetSpec; status?: StatefulSetStatus }

// ---- DaemonSet ----
export interface RollingUpdateDaemonSet { maxUnavailable?: IntOrString; maxSurge?: IntOrString }
export interface DaemonSetUpdateStrategy { type?: string; rollingUpdate?: RollingUpdateDaemonSet }
export interface DaemonSetSpec {
  selector?: LabelSelector | null;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}
export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: WorkloadCondition[];
}
export interface DaemonSet { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: DaemonSetSpec; status?: DaemonSetStatus }

// ---- ControllerRevision ----
export interface ControllerRevision {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  /** Any JSON object (runtime.RawExtension). */
  data?: unknown;
  revision: number;
}
