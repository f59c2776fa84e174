// ValidatingAdmissionPolicyBindings and MutatingAdmissionPolicyBindings: cluster-scoped,
// generation bumped on spec changes; a binding names its policy and, for validating policies, the
// actions to take.
// Counterpart of pkg/registry/admissionregistration/validatingadmissionpolicybinding and
// pkg/registry/admissionregistration/mutatingadmissionpolicybinding.
import { duplicate, fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta, validatePathSegmentName } from '../../../apimachinery/validation/object-meta.ts';
import { validateLabelSelector } from '../../../apimachinery/validation/label-selector.ts';
import { formatLabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, copyOf, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { defaultMatchResources, validateMatchResources, validateMutatingOperations } from '../rules.ts';
import type { AdmissionPolicyBinding } from '../v1/types.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { v1beta1Storage } from './storage-version.ts';

type RO<T> = DeepReadonly<T>;
type Kind = 'Validating' | 'Mutating';

const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];

/** validateParamRef: a path-segment name or a selector, not both; what to do when no parameter is found. */
function validateParamRef(ref: RO<NonNullable<AdmissionPolicyBinding['spec']>['paramRef']>, rp: FieldPath): FieldError[] {
  if (ref === undefined) return [];
  const errs: FieldError[] = [];
  const name = ref.name ?? '';
  if (name !== '') {
    for (const m of validatePathSegmentName(name, false)) errs.push(invalid(rp.child('name'), name, m));
    if (ref.selector !== undefined) errs.push(forbidden(rp.child('name'), 'name and selector are mutually exclusive'));
  }
  if (ref.selector !== undefined) {
    errs.push(...validateLabelSelector(ref.selector, {}, rp.child('selector')));
    if (name !== '') errs.push(forbidden(rp.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && ref.selector === undefined) errs.push(required(rp, 'one of name or selector must be specified'));
  const action = ref.parameterNotFoundAction ?? '';
  if (action === '') errs.push(required(rp.child('parameterNotFoundAction'), ''));
  else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action)) errs.push(notSupported(rp.child('parameterNotFoundAction'), action, PARAMETER_NOT_FOUND_ACTIONS));
  return errs;
}

function validateBinding(kind: Kind, b: RO<AdmissionPolicyBinding>): FieldError[] {
  const errs = validateObjectMeta(b.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = b.spec ?? {};
  const p = fieldPath('spec');
  if ((spec.policyName ?? '') === '') errs.push(required(p.child('policyName'), ''));
  else for (const m of nameIsDNSSubdomain(spec.policyName ?? '', false)) errs.push(invalid(p.child('policyName'), spec.policyName, m));
  errs.push(...validateParamRef(spec.paramRef, p.child('paramRef')));
  errs.push(...validateMatchResources(spec.matchResources, p.child('matchResources')));
  if (kind === 'Mutating') errs.push(...validateMutatingOperations(spec.matchResources, p.child('matchResources')));
  if (kind === 'Validating') {
    const actions = spec.validationActions ?? [];
    const ap = p.child('validationActions');
    const seen = new Set<string>();
    actions.forEach((a, i) => {
      if (!VALIDATION_ACTIONS.includes(a)) errs.push(notSupported(ap.index(i), a, VALIDATION_ACTIONS));
      if (seen.has(a)) errs.push(duplicate(ap.index(i), a));
      seen.add(a);
    });
    if (seen.has('Deny') && seen.has('Warn')) {
      errs.push(invalid(ap, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
    }
    if (seen.size === 0) errs.push(required(ap, 'at least one validation action is required'));
  }
  return errs;
}

/** printValidatingAdmissionPolicyBinding's ParamRef cell. */
function paramRefCell(b: RO<AdmissionPolicyBinding>): string {
  const ref = b.spec?.paramRef;
  if (ref === undefined) return '<unset>';
  if ((ref.name ?? '') !== '') return (ref.namespace ?? '') !== '' ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : `*/${ref.name ?? ''}`;
  return ref.selector === undefined ? '<unset>' : formatLabelSelector(copyOf<LabelSelector>(ref.selector));
}

function definition(kind: Kind) {
  const lower = `${kind.toLowerCase()}admissionpolicybinding`;
  return {
    group: 'admissionregistration.k8s.io', kind: `${kind}AdmissionPolicyBinding`, resource: `${lower}s`, singular: lower,
    namespaced: false,
    strategy: specStatusStrategy<AdmissionPolicyBinding>({ allowUnconditionalUpdate: false, validate: (b) => validateBinding(kind, b), generation: true }),
    defaults: (b: AdmissionPolicyBinding) => { if (b.spec?.matchResources !== undefined) defaultMatchResources(b.spec.matchResources); },
    // v1.36 stores the mutating bindings as v1beta1 (StorageFactory override).
    ...(kind === 'Mutating' ? { storageEncoding: v1beta1Storage } : {}),
    table: [
      nameColumn<AdmissionPolicyBinding>(),
      column<AdmissionPolicyBinding>('PolicyName', 'string', (b) => b.spec?.policyName ?? ''),
      column<AdmissionPolicyBinding>('ParamRef', 'string', paramRefCell),
      ageColumn<AdmissionPolicyBinding>(),
    ],
  } satisfies ResourceDefinition<AdmissionPolicyBinding>;
}

export const validatingAdmissionPolicyBindings = definition('Validating');
export const mutatingAdmissionPolicyBindings = definition('Mutating');
