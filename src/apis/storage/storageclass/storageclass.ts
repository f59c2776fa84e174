// StorageClasses (pkg/registry/storage/storageclass + ValidateStorageClass + printStorageClass):
// cluster-scoped, no status; provisioner, parameters, reclaimPolicy and volumeBindingMode are fixed
// once created.
import { fieldPath, GoSyntax, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateImmutableField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { StorageClass } from '../v1/types.ts';
import { validateParameters, validateProvisioner } from '../validation.ts';
import { validateTopologySelectorTerms } from './topology.ts';

type RO<T> = DeepReadonly<T>;

const IS_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

/** storageutil.IsDefaultAnnotation: either annotation set to "true". */
export function isDefaultStorageClass(annotations: RO<Record<string, string>> | undefined): boolean {
  return annotations?.[IS_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true' || annotations?.[BETA_IS_DEFAULT_STORAGE_CLASS_ANNOTATION] === 'true';
}

/** SetDefaults_StorageClass. */
export function defaultStorageClass(sc: StorageClass): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

function validateStorageClass(sc: RO<StorageClass>): FieldError[] {
  const errs = validateObjectMeta(sc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  errs.push(...validateProvisioner(sc.provisioner ?? '', fieldPath('provisioner')));
  errs.push(...validateParameters(sc.parameters, true, fieldPath('parameters')));
  const policy = sc.reclaimPolicy ?? '';
  if (policy !== '' && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported('reclaimPolicy', policy, RECLAIM_POLICIES));
  if (sc.volumeBindingMode === undefined) errs.push(required('volumeBindingMode', ''));
  else if (!BINDING_MODES.includes(sc.volumeBindingMode)) errs.push(notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  errs.push(...validateTopologySelectorTerms(sc.allowedTopologies, fieldPath('allowedTopologies')));
  return errs;
}

/** A map as Go's encoding/json prints it: keys sorted (null when unset). */
const goMap = (m: RO<Record<string, string>> | undefined): GoSyntax =>
  new GoSyntax(m === undefined || m === null ? 'null' : JSON.stringify(Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]))));

/** The declarative +k8s:immutable of v1.36: each of the four fields may not change once set. */
function validateStorageClassUpdate(sc: RO<StorageClass>, old: RO<StorageClass>): FieldError[] {
  const errs: FieldError[] = [];
  if (!deepEqual(sc.parameters ?? null, old.parameters ?? null)) errs.push(invalid('parameters', goMap(sc.parameters), 'field is immutable'));
  errs.push(...validateImmutableField(sc.provisioner ?? '', old.provisioner ?? '', fieldPath('provisioner')));
  errs.push(...validateImmutableField(sc.reclaimPolicy ?? null, old.reclaimPolicy ?? null, fieldPath('reclaimPolicy')));
  errs.push(...validateImmutableField(sc.volumeBindingMode ?? null, old.volumeBindingMode ?? null, fieldPath('volumeBindingMode')));
  return errs;
}

export const storageClasses = {
  group: 'storage.k8s.io', kind: 'StorageClass', resource: 'storageclasses', singular: 'storageclass', shortNames: ['sc'],
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  namespaced: false,
  strategy: specStatusStrategy<StorageClass>({ validate: validateStorageClass, validateUpdate: validateStorageClassUpdate }),
  defaults: defaultStorageClass,
  table: [
    { ...nameColumn<StorageClass>(), cell: (sc) => `${sc.metadata.name ?? ''}${isDefaultStorageClass(sc.metadata.annotations) ? ' (default)' : ''}` },
    column<StorageClass>('Provisioner', 'string', (sc) => sc.provisioner ?? ''),
    column<StorageClass>('ReclaimPolicy', 'string', (sc) => sc.reclaimPolicy ?? 'Delete'),
    column<StorageClass>('VolumeBindingMode', 'string', (sc) => sc.volumeBindingMode ?? 'Immediate'),
    column<StorageClass>('AllowVolumeExpansion', 'string', (sc) => sc.allowVolumeExpansion ?? false),
    ageColumn<StorageClass>(),
  ],
} satisfies ResourceDefinition<StorageClass>;
