// ClusterRoleBindings (pkg/registry/rbac/clusterrolebinding): a ClusterRole granted cluster-wide.
// roleRef is immutable; ServiceAccount subjects need a namespace. Escalation checks: not done here.
import type { FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { specStatusStrategy } from '../../../registry/rest/kit.ts';
import { bindingColumns } from '../common.ts';
import type { ClusterRoleBinding } from '../v1/types.ts';
import { defaultBinding, validateRBACName, validateRoleRef, validateRoleRefUpdate, validateSubjects } from '../validation.ts';

const specErrors = (b: DeepReadonly<ClusterRoleBinding>): FieldError[] =>
  [...validateRoleRef(b.roleRef, ['ClusterRole']), ...validateSubjects(b.subjects, false)];

function validateClusterRoleBinding(b: DeepReadonly<ClusterRoleBinding>): FieldError[] {
  return [...validateObjectMeta(b.metadata, { namespaced: false, nameFn: validateRBACName }), ...specErrors(b)];
}

export const clusterRoleBindings = {
  group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', singular: 'clusterrolebinding',
  namespaced: false,
  strategy: specStatusStrategy<ClusterRoleBinding>({
    validate: (b) => validateClusterRoleBinding(b),
    allowCreateOnUpdate: true,
    // Reported twice, as kube's ValidateUpdate validates the new object twice.
    revalidateOnUpdate: false,
    validateUpdate: (b, old) => [...specErrors(b), ...specErrors(b), ...validateRoleRefUpdate(b.roleRef, old.roleRef)],
  }),
  defaults: (b: ClusterRoleBinding) => { defaultBinding(b); },
  table: bindingColumns<ClusterRoleBinding>(),
} satisfies ResourceDefinition<ClusterRoleBinding>;
