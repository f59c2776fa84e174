// scheduling.k8s.io wire types: v1 PriorityClass, v1alpha2 Workload and PodGroup (fields kapi reads).
// Counterpart of k8s.io/api/scheduling/v1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';

export interface PriorityClass extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

export interface SchedulingPolicy {
  basic?: { desiredCount?: number };
  gang?: { minCount?: number; desiredCount?: number };
}

export interface PodGroupTemplate {
  name?: string;
  schedulingPolicy?: SchedulingPolicy;
  priorityClassName?: string;
}

export interface Workload extends KubeObject {
  spec?: {
    controllerRef?: { apiGroup?: string; kind?: string; name?: string };
    podGroupTemplates?: PodGroupTemplate[];
  };
}

export interface PodGroup extends KubeObject {
  spec?: {
    podGroupTemplateRef?: { workload?: Record<string, unknown> };
    schedulingPolicy?: SchedulingPolicy;
    priorityClassName?: string;
  };
  status?: { conditions?: Record<string, unknown>[] };
}
