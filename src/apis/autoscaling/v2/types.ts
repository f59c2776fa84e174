// Wire shapes of autoscaling/v2 HorizontalPodAutoscaler: the hub and storage version.
// Counterpart of k8s.io/api/autoscaling/v2.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';

export type Quantity = string | number;

export interface CrossVersionObjectReference { kind: string; name: string; apiVersion?: string }
export interface MetricIdentifier { name: string; selector?: LabelSelector }
export interface MetricTarget { type: string; value?: Quantity; averageValue?: Quantity; averageUtilization?: number }
export interface MetricValueStatus { value?: Quantity; averageValue?: Quantity; averageUtilization?: number }

export interface MetricSpec {
  type: string;
  object?: { describedObject: CrossVersionObjectReference; target: MetricTarget; metric: MetricIdentifier };
  pods?: { metric: MetricIdentifier; target: MetricTarget };
  resource?: { name: string; target: MetricTarget };
  containerResource?: { name: string; target: MetricTarget; container: string };
  external?: { metric: MetricIdentifier; target: MetricTarget };
}

export interface MetricStatus {
  type: string;
  object?: { metric: MetricIdentifier; current: MetricValueStatus; describedObject: CrossVersionObjectReference };
  pods?: { metric: MetricIdentifier; current: MetricValueStatus };
  resource?: { name: string; current: MetricValueStatus };
  containerResource?: { name: string; current: MetricValueStatus; container: string };
  external?: { metric: MetricIdentifier; current: MetricValueStatus };
}

export interface HPAScalingPolicy { type: string; value: number; periodSeconds: number }
export interface HPAScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: HPAScalingPolicy[];
  tolerance?: Quantity;
}
export interface HorizontalPodAutoscalerBehavior { scaleUp?: HPAScalingRules; scaleDown?: HPAScalingRules }

export interface HorizontalPodAutoscalerSpec {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  metrics?: MetricSpec[];
  behavior?: HorizontalPodAutoscalerBehavior;
}

export interface HorizontalPodAutoscalerCondition {
  type: string; status: string; lastTransitionTime?: string | null; reason?: string; message?: string;
}

export interface HorizontalPodAutoscalerStatus {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  /** Always serialized (no omitempty in Go): null when empty. */
  currentMetrics?: MetricStatus[] | null;
  conditions?: HorizontalPodAutoscalerCondition[];
}

export interface HorizontalPodAutoscaler {
  apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: HorizontalPodAutoscalerSpec; status?: HorizontalPodAutoscalerStatus;
}
