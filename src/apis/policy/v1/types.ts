// Wire shapes of policy/v1 PodDisruptionBudget.
// Counterpart of k8s.io/api/policy/v1.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';

export type IntOrString = number | string;

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  maxUnavailable?: IntOrString;
  unhealthyPodEvictionPolicy?: string;
}

export interface Condition {
  type: string; status: string; observedGeneration?: number; lastTransitionTime: string; reason: string; message: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

export interface PodDisruptionBudget {
  apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: PodDisruptionBudgetSpec; status?: PodDisruptionBudgetStatus;
}
