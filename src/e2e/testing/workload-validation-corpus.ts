// The invalid-workload corpus of issue 12: apps/v1, batch/v1, autoscaling and policy/v1, one case per
// rule of kube's validation (create, update incl. immutability, status and scale), plus valid objects
// that must be accepted. Sent to kapi and the oracle by e2e/workload-validation.test.ts.
// Rules it covers: pkg/apis/apps/validation, pkg/apis/batch/validation, pkg/apis/autoscaling/validation,
// pkg/apis/policy/validation, and the gated pod template fields every workload drops (DropDisabledTemplateFields).
import type { ValidationCase } from './validation-differential.ts';
import { APPS_CASES } from './workload-validation/apps.ts';
import { AUTOSCALING_POLICY_CASES } from './workload-validation/autoscaling.ts';
import { BATCH_CASES } from './workload-validation/batch.ts';
import { TEMPLATE_FIELD_CASES } from './workload-validation/template-fields.ts';

export const WORKLOAD_CASES: readonly ValidationCase[] = [...APPS_CASES, ...BATCH_CASES, ...AUTOSCALING_POLICY_CASES, ...TEMPLATE_FIELD_CASES];
