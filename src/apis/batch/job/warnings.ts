// Warnings for job specs (pkg/api/job/warnings.go: WarningsForJobSpec), also used for a
// CronJob's job template.
import type { FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { podTemplateWarnings } from '../../core/pod/warnings.ts';
import type { PodTemplateSpec } from '../../core/v1/types.ts';

const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_SOFT_LIMIT_FOR_UNLIMITED_COMPLETIONS = 10_000;

interface JobSpecLike { completionMode?: string; completions?: number | null; parallelism?: number | null; template?: PodTemplateSpec }

export function jobSpecWarnings(path: FieldPath, spec: DeepReadonly<JobSpecLike> | undefined): string[] {
  const warnings: string[] = [];
  if (spec?.completionMode === 'Indexed' && (spec.completions ?? 0) > COMPLETIONS_SOFT_LIMIT &&
    (spec.parallelism ?? 0) > PARALLELISM_SOFT_LIMIT_FOR_UNLIMITED_COMPLETIONS) {
    warnings.push(`${path.toString()}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, ` +
      'Kubernetes might not be able to track completedIndexes when a big number of indexes fail');
  }
  warnings.push(...podTemplateWarnings(path.child('template'), spec?.template));
  return warnings;
}
