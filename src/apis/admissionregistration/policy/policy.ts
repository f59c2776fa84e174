// ValidatingAdmissionPolicies (status subresource) and MutatingAdmissionPolicies: cluster-scoped,
// generation bumped on spec changes; the validation (./validation.ts) compiles their CEL
// expressions as the admission plugins do.
// Counterpart of pkg/registry/admissionregistration/validatingadmissionpolicy and
// pkg/registry/admissionregistration/mutatingadmissionpolicy.
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition, Strategy } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy, withoutMetadata } from '../../../registry/rest/kit.ts';
import { sameMatchConditions } from '../match-conditions.ts';
import { defaultMatchResources } from '../rules.ts';
import type { AdmissionPolicy } from '../v1/types.ts';
import { validateValidatingAdmissionPolicyStatus } from './status.ts';
import { validatePolicy, type PolicyKind, type PolicyValidationOptions } from './validation.ts';
import { v1beta1Storage } from './storage-version.ts';

type RO<T> = DeepReadonly<T>;

/** SetDefaults_ValidatingAdmissionPolicySpec / MutatingAdmissionPolicySpec. */
function defaultAdmissionPolicy(p: AdmissionPolicy): void {
  p.spec ??= {};
  p.spec.failurePolicy ??= 'Fail';
  if (p.spec.matchConstraints !== undefined) defaultMatchResources(p.spec.matchConstraints);
}

/** On update, unchanged match conditions (and paramKind) are not checked again. */
function updateOptions(pol: RO<AdmissionPolicy>, old: RO<AdmissionPolicy>): PolicyValidationOptions {
  return { ignoreMatchConditions: deepEqual(pol.spec?.paramKind, old.spec?.paramKind) && sameMatchConditions(pol.spec?.matchConditions, old.spec?.matchConditions) };
}

const CREATE: PolicyValidationOptions = { ignoreMatchConditions: false };

function policyStrategy(kind: PolicyKind, hasStatus: boolean): Strategy<AdmissionPolicy> {
  return specStatusStrategy<AdmissionPolicy>({
    allowUnconditionalUpdate: false, hasStatus, generation: true,
    validate: (p) => validatePolicy(kind, p, CREATE),
    revalidateOnUpdate: false,
    validateUpdate: (p, old) => withoutMetadata(validatePolicy(kind, p, updateOptions(p, old))),
  });
}

const paramKindCell = (pol: RO<AdmissionPolicy>): string =>
  (pol.spec?.paramKind === undefined ? '<unset>' : `${pol.spec.paramKind.apiVersion ?? ''}/${pol.spec.paramKind.kind ?? ''}`);

const vapStrategy = policyStrategy('Validating', true);

export const validatingAdmissionPolicies = {
  group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', resource: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy', namespaced: false,
  strategy: vapStrategy,
  statusStrategy: statusStrategy(vapStrategy, { validate: validateValidatingAdmissionPolicyStatus, resetMetadata: {} }),
  defaults: defaultAdmissionPolicy,
  table: [
    nameColumn<AdmissionPolicy>(),
    column<AdmissionPolicy>('Validations', 'integer', (p) => (p.spec?.validations ?? []).length),
    column<AdmissionPolicy>('ParamKind', 'string', paramKindCell),
    ageColumn<AdmissionPolicy>(),
  ],
} satisfies ResourceDefinition<AdmissionPolicy>;

export const mutatingAdmissionPolicies = {
  group: 'admissionregistration.k8s.io', kind: 'MutatingAdmissionPolicy', resource: 'mutatingadmissionpolicies',
  singular: 'mutatingadmissionpolicy', namespaced: false,
  strategy: policyStrategy('Mutating', false),
  defaults: defaultAdmissionPolicy,
  storageEncoding: v1beta1Storage,
  table: [
    nameColumn<AdmissionPolicy>(),
    column<AdmissionPolicy>('Mutations', 'integer', (p) => (p.spec?.mutations ?? []).length),
    column<AdmissionPolicy>('ParamKind', 'string', paramKindCell),
    ageColumn<AdmissionPolicy>(),
  ],
} satisfies ResourceDefinition<AdmissionPolicy>;
