// Roles (pkg/registry/rbac/role): namespaced rules; created on PUT so reconcilers can upsert.
// Escalation checks (a user may only grant what it holds) are in ../policy.ts.
import type { FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { specStatusStrategy } from '../../../registry/rest/kit.ts';
import { defaultTableColumns } from '../common.ts';
import type { Role } from '../v1/types.ts';
import { validateRBACName, validateRules } from '../validation.ts';

function validateRole(role: DeepReadonly<Role>): FieldError[] {
  return [...validateObjectMeta(role.metadata, { namespaced: true, nameFn: validateRBACName }), ...validateRules(role.rules, true)];
}

const specErrors = (role: DeepReadonly<Role>): FieldError[] => validateRules(role.rules, true);

export const roles = {
  group: 'rbac.authorization.k8s.io', kind: 'Role', resource: 'roles', singular: 'role', namespaced: true,
  strategy: specStatusStrategy<Role>({
    validate: (role) => validateRole(role),
    allowCreateOnUpdate: true,
    // kube's ValidateUpdate runs ValidateRole and then ValidateRoleUpdate, which runs it again:
    // every problem is reported twice, as there.
    revalidateOnUpdate: false,
    validateUpdate: (role, _old) => [...specErrors(role), ...specErrors(role)],
  }),
  table: defaultTableColumns<Role>(),
} satisfies ResourceDefinition<Role>;
