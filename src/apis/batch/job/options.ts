// What Job validation may allow, from the stored job and v1.36's feature gates (ValidationOptions of
// kube's batch validation).
// Counterpart of pkg/apis/batch/validation (JobValidationOptions) and pkg/registry/batch/job/strategy.go.

export interface JobValidationOptions {
  /** New jobs must carry the batch.kubernetes.io/ labels; older ones may only have the legacy pair. */
  readonly requirePrefixedLabels: boolean;
  /** Suspended jobs that never started (or are suspended again) may change scheduling directives and template labels. */
  readonly allowMutableSchedulingDirectives: boolean;
  /** ...and their containers' resources (MutablePodResourcesForSuspendedJobs, beta and on in v1.36). */
  readonly allowMutablePodResources: boolean;
}
