// PriorityClasses (pkg/registry/scheduling/priorityclass + ValidatePriorityClass +
// printPriorityClass): cluster-scoped; value and preemptionPolicy are fixed; `system-` names are
// reserved for the two classes kube bootstraps.
import { fieldPath, forbidden, notSupported, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateImmutableField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { PriorityClass } from '../v1/types.ts';
import { isKnownSystemPriorityClass, SYSTEM_PRIORITY_CLASS_PREFIX } from './system.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

type RO<T> = DeepReadonly<T>;

/** scheduling.HighestUserDefinablePriority. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;
// the declarative enum's order, as kube v1.36 lists the supported values
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** SetDefaults_PriorityClass. */
export function defaultPriorityClass(pc: PriorityClass): void {
  pc.preemptionPolicy ??= 'PreemptLowerPriority';
}

export function validatePriorityClass(pc: RO<PriorityClass>): FieldError[] {
  const errs = validateObjectMeta(pc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const name = pc.metadata.name ?? '';
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const problem = isKnownSystemPriorityClass(name, pc.value ?? 0, pc.globalDefault ?? false);
    if (problem !== undefined) {
      errs.push(forbidden(fieldPath('metadata', 'name'), `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
    }
  } else if ((pc.value ?? 0) > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (pc.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.includes(pc.preemptionPolicy)) {
    errs.push(notSupported('preemptionPolicy', pc.preemptionPolicy, PREEMPTION_POLICIES));
  }
  return errs;
}

/** ValidatePriorityClassUpdate: only value and preemptionPolicy besides metadata. */
function validatePriorityClassUpdate(pc: RO<PriorityClass>, old: RO<PriorityClass>): FieldError[] {
  const errs: FieldError[] = [];
  if ((pc.value ?? 0) !== (old.value ?? 0)) errs.push(forbidden('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy ?? null, old.preemptionPolicy ?? null, fieldPath('preemptionPolicy')));
  return errs;
}

export const priorityClasses = {
  group: 'scheduling.k8s.io', kind: 'PriorityClass', resource: 'priorityclasses', singular: 'priorityclass', shortNames: ['pc'],
  goZeroValues: (o) => { for (const [path, v] of [[['value'], 0]] as const) setZero(o, path, v); },
  namespaced: false,
  // kube's PrepareForCreate starts the generation at 1 (validating admission sees it).
  strategy: specStatusStrategy<PriorityClass>({ prepareForCreate: (_ctx, pc) => { pc.metadata.generation = 1; }, validate: validatePriorityClass, revalidateOnUpdate: false, validateUpdate: (pc, old) => validatePriorityClassUpdate(pc, old) }),
  defaults: defaultPriorityClass,
  table: [
    nameColumn<PriorityClass>(),
    column<PriorityClass>('Value', 'integer', (pc) => pc.value ?? 0),
    column<PriorityClass>('Global-Default', 'boolean', (pc) => pc.globalDefault ?? false),
    ageColumn<PriorityClass>(),
    column<PriorityClass>('PreemptionPolicy', 'string', (pc) => pc.preemptionPolicy ?? ''),
  ],
} satisfies ResourceDefinition<PriorityClass>;
