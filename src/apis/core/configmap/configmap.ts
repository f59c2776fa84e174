// ConfigMaps (pkg/registry/core/configmap + ValidateConfigMap): key rules, a 1MiB total, and
// `immutable` freezing data and binaryData.
import { fieldPath, forbidden, invalid, tooLong, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta, repeatedMetadataErrors } from '../../../apimachinery/validation/object-meta.ts';
import { byteLength, isConfigMapKey } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { ConfigMap } from '../v1/types.ts';

/** core.MaxSecretSize: the limit on the summed sizes of ConfigMap and Secret values. */
export const MAX_SECRET_SIZE = 1024 * 1024;
export const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

/** The decoded size of a base64 value (binaryData and Secret data are bytes on the wire as base64). */
export function base64DecodedLength(s: string): number {
  return Buffer.from(s, 'base64').length;
}

function validateConfigMap(cm: DeepReadonly<ConfigMap>): FieldError[] {
  const errs = validateObjectMeta(cm.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const data = cm.data ?? {};
  const binary = cm.binaryData ?? {};
  let total = 0;
  for (const key of Object.keys(data).sort()) {
    const p = fieldPath('data').key(key);
    for (const m of isConfigMapKey(key)) errs.push(invalid(p, key, m));
    if (Object.hasOwn(binary, key)) errs.push(invalid(p, key, 'duplicate of key present in binaryData'));
    total += byteLength(data[key] ?? '');
  }
  for (const key of Object.keys(binary).sort()) {
    const p = fieldPath('binaryData').key(key);
    for (const m of isConfigMapKey(key)) errs.push(invalid(p, key, m));
    total += base64DecodedLength(binary[key] ?? '');
  }
  // kube's path here is field.NewPath(""), which prints as "[]"
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('[]', '', MAX_SECRET_SIZE));
  return errs;
}

function validateConfigMapUpdate(cm: DeepReadonly<ConfigMap>, old: DeepReadonly<ConfigMap>): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (cm.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_WHEN_SET));
    if (!deepEqual(cm.data ?? {}, old.data ?? {})) errs.push(forbidden('data', IMMUTABLE_WHEN_SET));
    if (!deepEqual(cm.binaryData ?? {}, old.binaryData ?? {})) errs.push(forbidden('binaryData', IMMUTABLE_WHEN_SET));
  }
  // ValidateConfigMapUpdate repeats the metadata checks of update and create
  return [...errs, ...validateConfigMap(cm).filter((e) => !e.field.startsWith('metadata.')),
    ...repeatedMetadataErrors(cm.metadata, old.metadata, { update: true, create: { namespaced: true, nameFn: nameIsDNSSubdomain } })];
}

export const configMaps = {
  group: '', kind: 'ConfigMap', resource: 'configmaps', singular: 'configmap', shortNames: ['cm'], namespaced: true,
  strategy: specStatusStrategy<ConfigMap>({
    validate: (cm) => validateConfigMap(cm),
    revalidateOnUpdate: false,
    validateUpdate: (cm, old) => validateConfigMapUpdate(cm, old),
  }),
  table: [
    nameColumn<ConfigMap>(),
    { name: 'Data', type: 'string',      cell: (cm) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length },
    ageColumn<ConfigMap>(),
  ],
} satisfies ResourceDefinition<ConfigMap>;
