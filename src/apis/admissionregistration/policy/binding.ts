// ValidatingAdmissionPolicyBindings and MutatingAdmissionPolicyBindings: cluster-scoped,
// generation bumped on spec changes; a binding names its policy and, for validating policies, the
// actions to take.
// Counterpart of pkg/registry/admissionregistration/validatingadmissionpolicybinding and
// pkg/registry/admissionregistration/mutatingadmissionpolicybinding.
import { duplicate, fieldPath, forbidden, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { formatLabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../storage/kit.ts';
import { defaultMatchResources, validateMatchResources } from '../rules.ts';
import type { AdmissionPolicyBinding } from '../v1/types.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import { copyOf } from '../../core/common.ts';

type RO<T> = DeepReadonly<T>;
type Kind = 'Validating' | 'Mutating';

const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const PARAMETER_NOT_FOUND_ACTIONS = ['Allow', 'Deny'];

function validateBinding(kind: Kind, b: RO<AdmissionPolicyBinding>): FieldError[] {
  const errs = validateObjectMeta(b.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = b.spec ?? {};
  const p = fieldPath('spec');
  if ((spec.policyName ?? '') === '') errs.push(required(p.child('policyName'), ''));
  else for (const m of nameIsDNSSubdomain(spec.policyName ?? '', false)) errs.push(invalid(p.child('policyName'), spec.policyName, m));
  const ref = spec.paramRef;
  if (ref !== undefined) {
    const rp = p.child('paramRef');
    if ((ref.name ?? '') !== '' && ref.selector !== undefined) errs.push(forbidden(rp.child('name'), 'name and selector are mutually exclusive'));
    if ((ref.name ?? '') === '' && ref.selector === undefined) errs.push(required(rp, 'one of name or selector must be specified'));
    const action = ref.parameterNotFoundAction;
    if (action === undefined) errs.push(required(rp.child('parameterNotFoundAction'), ''));
    else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action)) errs.push(notSupported(rp.child('parameterNotFoundAction'), action, PARAMETER_NOT_FOUND_ACTIONS));
  }
  errs.push(...validateMatchResources(spec.matchResources, p.child('matchResources')));
  if (kind === 'Validating') {
    const actions = spec.validationActions ?? [];
    if (actions.length === 0) errs.push(required(p.child('validationActions'), ''));
    const seen = new Set<string>();
    actions.forEach((a, i) => {
      if (seen.has(a)) errs.push(duplicate(p.child('validationActions').index(i), a));
      seen.add(a);
      if (!VALIDATION_ACTIONS.includes(a)) errs.push(notSupported(p.child('validationActions').index(i), a, VALIDATION_ACTIONS));
    });
    if (seen.has('Deny') && seen.has('Warn')) errs.push(forbidden(p.child('validationActions'), 'Deny and Warn actions are not allowed together'));
  }
  return errs;
}

/** printValidatingAdmissionPolicyBinding's ParamRef cell. */
export function paramRefCell(b: RO<AdmissionPolicyBinding>): string {
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
