// RuntimeClasses (pkg/registry/node/runtimeclass + ValidateRuntimeClass): the handler is a DNS
// label and fixed once created; scheduling.nodeSelector is a label map.
import { duplicate, fieldPath, GoSyntax, invalid, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { validateTolerations } from '../../core/pod/affinity.ts';
import { validateOverhead } from '../../core/pod/resources.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain, validateImmutableField, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { nodeLabelDeprecatedMessage } from '../../core/node-labels.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { RuntimeClass } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

function validateRuntimeClass(rc: RO<RuntimeClass>): FieldError[] {
  const errs = validateObjectMeta(rc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const handler = rc.handler ?? '';
  if (handler === '') errs.push(required(fieldPath('handler')));
  else for (const m of nameIsDNSLabel(handler, false)) errs.push(invalid(fieldPath('handler'), handler, m));
  // kube checks podFixed as a container's limits, and reports it so (overhead.limits[...])
  if (rc.overhead !== undefined && rc.overhead !== null) errs.push(...validateOverhead(rc.overhead.podFixed, fieldPath('overhead')));
  const scheduling = rc.scheduling;
  if (scheduling !== undefined && scheduling !== null) {
    errs.push(...validateLabels(scheduling.nodeSelector, fieldPath('scheduling', 'nodeSelector')));
    errs.push(...validateTolerationSet(scheduling.tolerations ?? [], fieldPath('scheduling', 'tolerations')));
  }
  return errs;
}

/** ValidateTolerations, then each (key, operator, value, effect) once. */
function validateTolerationSet(tolerations: readonly unknown[], p: FieldPath): FieldError[] {
  const errs = validateTolerations(tolerations, p);
  const seen = new Set<string>();
  tolerations.forEach((raw, i) => {
    const t = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const s = (k: string): string => (typeof t[k] === 'string' ? t[k] : '');
    const key = JSON.stringify([s('key'), s('operator'), s('value'), s('effect')]);
    if (seen.has(key)) {
      const seconds = typeof t['tolerationSeconds'] === 'number' ? t['tolerationSeconds'] : null;
      errs.push(duplicate(p.index(i), new GoSyntax(JSON.stringify({ Key: s('key'), Operator: s('operator'), Value: s('value'), Effect: s('effect'), TolerationSeconds: seconds }))));
    }
    seen.add(key);
  });
  return errs;
}

function validateRuntimeClassUpdate(rc: RO<RuntimeClass>, old: RO<RuntimeClass>): FieldError[] {
  return validateImmutableField(rc.handler ?? '', old.handler ?? '', fieldPath('handler'));
}

/** GetWarningsForRuntimeClass: deprecated node labels in scheduling.nodeSelector (kube prints no key). */
function runtimeClassWarnings(rc: RO<RuntimeClass>): string[] {
  return Object.keys(rc.scheduling?.nodeSelector ?? {}).flatMap((k) => {
    const msg = nodeLabelDeprecatedMessage(k);
    return msg === undefined ? [] : [`scheduling.nodeSelector: ${msg}`];
  });
}


export const runtimeClasses = {
  group: 'node.k8s.io', kind: 'RuntimeClass', resource: 'runtimeclasses', singular: 'runtimeclass', namespaced: false,
  strategy: specStatusStrategy<RuntimeClass>({
    validate: validateRuntimeClass,
    validateUpdate: validateRuntimeClassUpdate,
    allowUnconditionalUpdate: false,
    warningsOnCreate: (rc) => runtimeClassWarnings(rc),
    warningsOnUpdate: (rc) => runtimeClassWarnings(rc),
  }),
  table: [
    nameColumn<RuntimeClass>(),
    column<RuntimeClass>('Handler', 'string', (rc) => rc.handler ?? ''),
    ageColumn<RuntimeClass>(),
  ],
} satisfies ResourceDefinition<RuntimeClass>;
