// Wire shapes of batch/v1 Job and CronJob (only the fields kapi reads or defaults).
// Counterpart of k8s.io/api/batch/v1.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { ObjectReference, PodTemplateSpec } from '../../core/v1/types.ts';

export interface PodFailurePolicyOnPodConditionsPattern { type: string; status?: string }
export interface PodFailurePolicyRule {
  action: string;
  onExitCodes?: { containerName?: string; operator: string; values: number[] };
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}
export interface PodFailurePolicy { rules: PodFailurePolicyRule[] }

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: PodFailurePolicy;
  successPolicy?: { rules: Record<string, unknown>[] };
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  suspend?: boolean;
  podReplacementPolicy?: string;
  managedBy?: string;
}

export interface JobCondition {
  type: string; status: string; lastProbeTime?: string; lastTransitionTime?: string; reason?: string; message?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  ready?: number;
}

export interface Job { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: JobSpec; status?: JobStatus }

export interface JobTemplateSpec { metadata?: ObjectMeta; spec: JobSpec }

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: string;
  suspend?: boolean;
  jobTemplate: JobTemplateSpec;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJobStatus { active?: ObjectReference[]; lastScheduleTime?: string; lastSuccessfulTime?: string }

export interface CronJob { apiVersion?: string; kind?: string; metadata: ObjectMeta; spec: CronJobSpec; status?: CronJobStatus }
