// RBAC validation (pkg/apis/rbac/validation): rules, role references and subjects. Role and
// binding names only need to be valid path segments (ValidateRBACName).
import { fieldPath, invalid, notSupported, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { validatePathSegmentName, validateServiceAccountName } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { RBAC_GROUP, type PolicyRule, type RoleRef, type Subject } from './v1/types.ts';

export const validateRBACName = validatePathSegmentName;

/** ValidatePolicyRule: verbs always; either non-resource URLs (cluster roles only) or groups and resources. */
function validatePolicyRule(rule: DeepReadonly<PolicyRule>, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) errs.push(invalid(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if ((rule.apiGroups ?? []).length > 0 || (rule.resources ?? []).length > 0 || (rule.resourceNames ?? []).length > 0) {
      errs.push(invalid(path.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if ((rule.resources ?? []).length === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

export function validateRules(rules: DeepReadonly<PolicyRule[]> | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((r, i) => validatePolicyRule(r, namespaced, fieldPath('rules').index(i)));
}

/** The roleRef of a binding: RoleBindings may name a Role or a ClusterRole, ClusterRoleBindings only a ClusterRole. */
export function validateRoleRef(ref: DeepReadonly<RoleRef> | undefined, kinds: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = ref?.apiGroup ?? '';
  if (apiGroup !== RBAC_GROUP) errs.push(notSupported(fieldPath('roleRef', 'apiGroup'), apiGroup, [RBAC_GROUP]));
  const kind = ref?.kind ?? '';
  if (!kinds.includes(kind)) errs.push(notSupported(fieldPath('roleRef', 'kind'), kind, kinds));
  const name = ref?.name ?? '';
  if (name === '') errs.push(required(fieldPath('roleRef', 'name')));
  else for (const m of validateRBACName(name, false)) errs.push(invalid(fieldPath('roleRef', 'name'), name, m));
  return errs;
}

/** ValidateRoleBindingSubject: ServiceAccounts need a namespace in cluster bindings; Users and Groups belong to the RBAC group. */
export function validateSubject(s: DeepReadonly<Subject>, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = s.name ?? '';
  const apiGroup = s.apiGroup ?? '';
  if (name === '') errs.push(required(path.child('name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const m of validateServiceAccountName(name, false)) errs.push(invalid(path.child('name'), name, m));
      if (apiGroup !== '') errs.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && (s.namespace ?? '') === '') errs.push(required(path.child('namespace')));
      break;
    case 'User': case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(notSupported(path.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(path.child('kind'), s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

export function validateSubjects(subjects: DeepReadonly<Subject[]> | undefined, namespaced: boolean): FieldError[] {
  return (subjects ?? []).flatMap((s, i) => validateSubject(s, namespaced, fieldPath('subjects').index(i)));
}

/** The roleRef of a binding never changes: kube compares the three fields. */
export function validateRoleRefUpdate(ref: DeepReadonly<RoleRef> | undefined, old: DeepReadonly<RoleRef> | undefined): FieldError[] {
  const same = (ref?.apiGroup ?? '') === (old?.apiGroup ?? '') && (ref?.kind ?? '') === (old?.kind ?? '') && (ref?.name ?? '') === (old?.name ?? '');
  return same ? [] : [invalid(fieldPath('roleRef'), { apiGroup: ref?.apiGroup ?? '', kind: ref?.kind ?? '', name: ref?.name ?? '' }, 'cannot change roleRef')];
}

/** SetDefaults_Subject: Users and Groups default to the RBAC group, ServiceAccounts to the core group (no apiGroup). */
function defaultSubjects(subjects: Subject[] | undefined): void {
  for (const s of subjects ?? []) {
    if ((s.apiGroup ?? '') !== '') continue;
    // The core group is "", which Go's omitempty leaves out.
    if (s.kind === 'ServiceAccount') delete s.apiGroup;
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
  }
}

/**
 * SetDefaults_RoleBinding / ClusterRoleBinding: roleRef.apiGroup defaults to the RBAC group, also
 * when roleRef is missing (a struct, not a pointer, in Go: kube then reports only kind and name).
 */
export function defaultBinding(b: { roleRef?: RoleRef; subjects?: Subject[] }): void {
  b.roleRef ??= {};
  if ((b.roleRef.apiGroup ?? '') === '') b.roleRef.apiGroup = RBAC_GROUP;
  defaultSubjects(b.subjects);
}
