// Wire shapes of autoscaling/v1 HorizontalPodAutoscaler, and of the v1 metric types that only
// travel inside the round-trip annotations (the v2beta1-style shapes of k8s.io/api/autoscaling/v1).
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { CrossVersionObjectReference, Quantity } from '../v2/types.ts';

export interface HorizontalPodAutoscalerSpecV1 {
  scaleTargetRef: CrossVersionObjectReference;
  minReplicas?: number;
  maxReplicas: number;
  targetCPUUtilizationPercentage?: number;
}

export interface HorizontalPodAutoscalerStatusV1 {
  observedGeneration?: number;
  lastScaleTime?: string;
  currentReplicas: number;
  desiredReplicas: number;
  currentCPUUtilizationPercentage?: number;
}

export interface HorizontalPodAutoscalerV1 {
  apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: HorizontalPodAutoscalerSpecV1; status?: HorizontalPodAutoscalerStatusV1;
}

export interface MetricSpecV1 {
  type: string;
  object?: { target: CrossVersionObjectReference; metricName: string; targetValue: Quantity; selector?: LabelSelector; averageValue?: Quantity };
  pods?: { metricName: string; targetAverageValue: Quantity; selector?: LabelSelector };
  resource?: { name: string; targetAverageUtilization?: number; targetAverageValue?: Quantity };
  containerResource?: { name: string; targetAverageUtilization?: number; targetAverageValue?: Quantity; container: string };
  external?: { metricName: string; metricSelector?: LabelSelector; targetValue?: Quantity; targetAverageValue?: Quantity };
}

export interface MetricStatusV1 {
  type: string;
  object?: { target: CrossVersionObjectReference; metricName: string; currentValue: Quantity; selector?: LabelSelector; averageValue?: Quantity };
  pods?: { metricName: string; currentAverageValue: Quantity; selector?: LabelSelector };
  resource?: { name: string; currentAverageUtilization?: number; currentAverageValue: Quantity };
  containerResource?: { name: string; currentAverageUtilization?: number; currentAverageValue: Quantity; container: string };
  external?: { metricName: string; metricSelector?: LabelSelector; currentValue: Quantity; currentAverageValue?: Quantity };
}
