// DeviceTaintRules (resource.k8s.io v1beta2 and v1alpha3, off by default): cluster-scoped, status
// subresource, generation bumped on spec changes. Light validation of the taint.
// Counterpart of pkg/registry/resource/devicetaintrule.
import { fieldPath, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { DeviceTaintRule } from '../v1/types.ts';

const EFFECTS = ['NoExecute', 'NoSchedule', 'None'];

export function validateDeviceTaintRule(r: DeepReadonly<DeviceTaintRule>): FieldError[] {
  const errs = validateObjectMeta(r.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const p = fieldPath('spec', 'taint');
  const taint = r.spec?.taint ?? {};
  if ((taint.key ?? '') === '') errs.push(required(p.child('key'), ''));
  if ((taint.effect ?? '') === '') errs.push(required(p.child('effect'), ''));
  else if (!EFFECTS.includes(taint.effect ?? '')) errs.push(notSupported(p.child('effect'), taint.effect, EFFECTS));
  return errs;
}

const strategy = specStatusStrategy<DeviceTaintRule>({ validate: validateDeviceTaintRule, hasStatus: true, generation: true });

export const deviceTaintRules = {
  group: 'resource.k8s.io', kind: 'DeviceTaintRule', resource: 'devicetaintrules', singular: 'devicetaintrule', namespaced: false,
  strategy,
  statusStrategy: statusStrategy(strategy, { resetMetadata: {} }),
  table: [nameColumn<DeviceTaintRule>(), ageColumn<DeviceTaintRule>()],
} satisfies ResourceDefinition<DeviceTaintRule>;
