// RoleBindings (pkg/registry/rbac/rolebinding): a Role or ClusterRole granted to subjects in a
// namespace. roleRef is immutable. Escalation checks need the authorizer: not done here.
import type { FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { specStatusStrategy } from '../../../registry/rest/kit.ts';
import { bindingColumns } from '../common.ts';
import type { RoleBinding } from '../v1/types.ts';
import { defaultBinding, validateRBACName, validateRoleRef, validateRoleRefUpdate, validateSubjects } from '../validation.ts';

const specErrors = (b: DeepReadonly<RoleBinding>): FieldError[] =>
  [...validateRoleRef(b.roleRef, ['Role', 'ClusterRole']), ...validateSubjects(b.subjects, true)];

function validateRoleBinding(b: DeepReadonly<RoleBinding>): FieldError[] {
  return [...validateObjectMeta(b.metadata, { namespaced: true, nameFn: validateRBACName }), ...specErrors(b)];
}

export const roleBindings = {
  group: 'rbac.authorization.k8s.io', kind: 'RoleBinding', resource: 'rolebindings', singular: 'rolebinding', namespaced: true,
  strategy: specStatusStrategy<RoleBinding>({
    validate: (b) => validateRoleBinding(b),
    allowCreateOnUpdate: true,
    // Reported twice, as kube's ValidateUpdate validates the new object twice.
    revalidateOnUpdate: false,
    validateUpdate: (b, old) => [...specErrors(b), ...specErrors(b), ...validateRoleRefUpdate(b.roleRef, old.roleRef)],
  }),
  defaults: (b: RoleBinding) => { defaultBinding(b); },
  table: bindingColumns<RoleBinding>(),
} satisfies ResourceDefinition<RoleBinding>;
