// ClusterRoles (pkg/registry/rbac/clusterrole): rules, including non-resource URLs, and the
// aggregation rule whose selectors the aggregation controller follows.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { labelSelectorAsSelector, type LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../../../apimachinery/validation/label-selector.ts';
import { copyOf, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { defaultTableColumns } from '../common.ts';
import type { ClusterRole } from '../v1/types.ts';
import { validateRBACName, validateRules } from '../validation.ts';

function validateAggregationRule(role: DeepReadonly<ClusterRole>, opts: LabelSelectorValidationOptions): FieldError[] {
  const rule = role.aggregationRule;
  if (rule === undefined) return [];
  const errs: FieldError[] = [];
  const base = fieldPath('aggregationRule', 'clusterRoleSelectors');
  const selectors = rule.clusterRoleSelectors ?? [];
  if (selectors.length === 0) errs.push(required(base, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((sel, i) => {
    errs.push(...validateLabelSelector(sel, opts, base.index(i)));
    try {
      labelSelectorAsSelector(copyOf<LabelSelector>(sel));
    } catch {
      errs.push(invalid(base.index(i), null, 'invalid label selector.'));
    }
  });
  return errs;
}

function specErrors(role: DeepReadonly<ClusterRole>, opts: LabelSelectorValidationOptions): FieldError[] {
  return [...validateRules(role.rules, false), ...validateAggregationRule(role, opts)];
}

function validateClusterRole(role: DeepReadonly<ClusterRole>): FieldError[] {
  return [...validateObjectMeta(role.metadata, { namespaced: false, nameFn: validateRBACName }), ...specErrors(role, {})];
}

/** Stored selectors with invalid label values stay accepted (the update options of the strategy). */
function updateOptions(old: DeepReadonly<ClusterRole>): LabelSelectorValidationOptions {
  const invalidBefore = (old.aggregationRule?.clusterRoleSelectors ?? [])
    .some((s) => validateLabelSelector(s, {}, fieldPath('s')).length > 0);
  return { allowInvalidLabelValueInSelector: invalidBefore };
}

export const clusterRoles = {
  group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', resource: 'clusterroles', singular: 'clusterrole', namespaced: false,
  strategy: specStatusStrategy<ClusterRole>({
    validate: (role) => validateClusterRole(role),
    allowCreateOnUpdate: true,
    // Reported twice, as kube's ValidateUpdate validates the new object twice.
    revalidateOnUpdate: false,
    validateUpdate: (role, old) => {
      const opts = updateOptions(old);
      return [...specErrors(role, opts), ...specErrors(role, opts)];
    },
  }),
  table: defaultTableColumns<ClusterRole>(),
} satisfies ResourceDefinition<ClusterRole>;
