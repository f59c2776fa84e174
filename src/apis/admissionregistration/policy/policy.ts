// ValidatingAdmissionPolicies (status subresource) and MutatingAdmissionPolicies: cluster-scoped,
// generation bumped on spec changes. CEL expressions are stored, not compiled or evaluated; the
// validation here is structural.
// Counterpart of pkg/registry/admissionregistration/validatingadmissionpolicy and
// pkg/registry/admissionregistration/mutatingadmissionpolicy.
import { fieldPath, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../storage/kit.ts';
import { defaultMatchResources, validateMatchResources } from '../rules.ts';
import type { AdmissionPolicy } from '../v1/types.ts';
import { validateValidatingAdmissionPolicyStatus } from './status.ts';

type RO<T> = DeepReadonly<T>;
type Kind = 'Validating' | 'Mutating';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/** SetDefaults_ValidatingAdmissionPolicySpec / MutatingAdmissionPolicySpec. */
export function defaultAdmissionPolicy(p: AdmissionPolicy): void {
  p.spec ??= {};
  p.spec.failurePolicy ??= 'Fail';
  if (p.spec.matchConstraints !== undefined) defaultMatchResources(p.spec.matchConstraints);
}

function validatePolicy(kind: Kind, pol: RO<AdmissionPolicy>): FieldError[] {
  const errs = validateObjectMeta(pol.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = pol.spec ?? {};
  const p = fieldPath('spec');
  if (spec.paramKind !== undefined) {
    if ((spec.paramKind.apiVersion ?? '') === '') errs.push(required(p.child('paramKind', 'apiVersion'), ''));
    if ((spec.paramKind.kind ?? '') === '') errs.push(required(p.child('paramKind', 'kind'), ''));
  }
  if (spec.matchConstraints === undefined) errs.push(required(p.child('matchConstraints'), ''));
  else {
    if ((spec.matchConstraints.resourceRules ?? []).length === 0) errs.push(required(p.child('matchConstraints', 'resourceRules'), ''));
    errs.push(...validateMatchResources(spec.matchConstraints, p.child('matchConstraints')));
  }
  if (spec.failurePolicy !== undefined && !FAILURE_POLICIES.includes(spec.failurePolicy)) errs.push(notSupported(p.child('failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));
  (spec.variables ?? []).forEach((v, i) => {
    if ((v.name ?? '') === '') errs.push(required(p.child('variables').index(i).child('name'), ''));
    if ((v.expression ?? '') === '') errs.push(required(p.child('variables').index(i).child('expression'), ''));
  });
  (spec.matchConditions ?? []).forEach((c, i) => {
    if ((c.name ?? '') === '') errs.push(required(p.child('matchConditions').index(i).child('name'), ''));
    if ((c.expression ?? '') === '') errs.push(required(p.child('matchConditions').index(i).child('expression'), ''));
  });
  if (kind === 'Validating') {
    const audit = (spec as { auditAnnotations?: unknown[] }).auditAnnotations ?? [];
    if ((spec.validations ?? []).length === 0 && audit.length === 0) {
      errs.push(required(p.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    }
    (spec.validations ?? []).forEach((v, i) => {
      if ((v.expression ?? '') === '') errs.push(required(p.child('validations').index(i).child('expression'), ''));
    });
  } else {
    if ((spec.mutations ?? []).length === 0) errs.push(required(p.child('mutations'), 'mutations must contain at least one item'));
    (spec.mutations ?? []).forEach((m, i) => {
      const mp = p.child('mutations').index(i).child('patchType');
      if ((m.patchType ?? '') === '') errs.push(required(mp, ''));
      else if (!PATCH_TYPES.includes(m.patchType ?? '')) errs.push(notSupported(mp, m.patchType, PATCH_TYPES));
    });
    if (spec.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(spec.reinvocationPolicy)) {
      errs.push(notSupported(p.child('reinvocationPolicy'), spec.reinvocationPolicy, REINVOCATION_POLICIES));
    }
  }
  return errs;
}

const paramKindCell = (pol: RO<AdmissionPolicy>): string =>
  (pol.spec?.paramKind === undefined ? '<unset>' : `${pol.spec.paramKind.apiVersion ?? ''}/${pol.spec.paramKind.kind ?? ''}`);

const vapStrategy = specStatusStrategy<AdmissionPolicy>({ allowUnconditionalUpdate: false, validate: (p) => validatePolicy('Validating', p), hasStatus: true, generation: true });

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
  strategy: specStatusStrategy<AdmissionPolicy>({ allowUnconditionalUpdate: false, validate: (p) => validatePolicy('Mutating', p), generation: true }),
  defaults: defaultAdmissionPolicy,
  table: [
    nameColumn<AdmissionPolicy>(),
    column<AdmissionPolicy>('Mutations', 'integer', (p) => (p.spec?.mutations ?? []).length),
    column<AdmissionPolicy>('ParamKind', 'string', paramKindCell),
    ageColumn<AdmissionPolicy>(),
  ],
} satisfies ResourceDefinition<AdmissionPolicy>;
