// RuntimeClasses (pkg/registry/node/runtimeclass + ValidateRuntimeClass): the handler is a DNS
// label and fixed once created; scheduling.nodeSelector is a label map.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain, validateImmutableField, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { nodeLabelDeprecatedMessage } from '../../core/node-labels.ts';
import { parseQuantity } from '../../core/v1/quantity.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { RuntimeClass } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

export function validateRuntimeClass(rc: RO<RuntimeClass>): FieldError[] {
  const errs = validateObjectMeta(rc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const handler = rc.handler ?? '';
  for (const m of nameIsDNSLabel(handler, false)) errs.push(invalid(fieldPath('handler'), handler, m));
  for (const [k, v] of Object.entries(rc.overhead?.podFixed ?? {})) {
    const q = parseQuantity(v);
    if (q !== undefined && q < 0) errs.push(invalid(fieldPath('overhead', 'podFixed').key(k), v, 'must be greater than or equal to 0'));
  }
  errs.push(...validateLabels(rc.scheduling?.nodeSelector, fieldPath('scheduling', 'nodeSelector')));
  return errs;
}

export function validateRuntimeClassUpdate(rc: RO<RuntimeClass>, old: RO<RuntimeClass>): FieldError[] {
  return validateImmutableField(rc.handler ?? '', old.handler ?? '', fieldPath('handler'));
}

/** GetWarningsForRuntimeClass: deprecated node labels in scheduling.nodeSelector (kube prints no key). */
export function runtimeClassWarnings(rc: RO<RuntimeClass>): string[] {
  return Object.keys(rc.scheduling?.nodeSelector ?? {}).flatMap((k) => {
    const msg = nodeLabelDeprecatedMessage(k);
    return msg === undefined ? [] : [`scheduling.nodeSelector: ${msg}`];
  });
}

const baseStrategy = specStatusStrategy<RuntimeClass>({ validate: validateRuntimeClass, validateUpdate: validateRuntimeClassUpdate });

export const runtimeClasses = {
  group: 'node.k8s.io', kind: 'RuntimeClass', resource: 'runtimeclasses', singular: 'runtimeclass', namespaced: false,
  strategy: {
    ...baseStrategy,
    allowUnconditionalUpdate: false,
    warningsOnCreate: (_ctx, rc) => runtimeClassWarnings(rc),
    warningsOnUpdate: (_ctx, rc) => runtimeClassWarnings(rc),
  },
  table: [
    nameColumn<RuntimeClass>(),
    column<RuntimeClass>('Handler', 'string', (rc) => rc.handler ?? ''),
    ageColumn<RuntimeClass>(),
  ],
} satisfies ResourceDefinition<RuntimeClass>;
