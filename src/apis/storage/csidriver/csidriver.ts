// CSIDrivers (pkg/registry/storage/csidriver): cluster-scoped, no status; attachRequired and
// volumeLifecycleModes are immutable.
import { duplicate, fieldPath, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateImmutableField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { CSIDriver } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];

/** SetDefaults_CSIDriver. */
export function defaultCSIDriver(d: CSIDriver): void {
  d.spec ??= {};
  d.spec.attachRequired ??= true;
  d.spec.podInfoOnMount ??= false;
  d.spec.storageCapacity ??= false;
  d.spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (d.spec.volumeLifecycleModes === undefined || d.spec.volumeLifecycleModes.length === 0) d.spec.volumeLifecycleModes = ['Persistent'];
  d.spec.requiresRepublish ??= false;
  d.spec.seLinuxMount ??= false;
}

function validateSpec(d: RO<CSIDriver>): FieldError[] {
  const s = d.spec ?? {};
  const p = fieldPath('spec');
  const errs: FieldError[] = [];
  // kube's field path really says "attachedRequired".
  if (s.attachRequired === undefined) errs.push(required(p.child('attachedRequired'), ''));
  if (s.podInfoOnMount === undefined) errs.push(required(p.child('podInfoOnMount'), ''));
  if (s.storageCapacity === undefined) errs.push(required(p.child('storageCapacity'), ''));
  if (s.fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(s.fsGroupPolicy)) errs.push(notSupported(p.child('fsGroupPolicy'), s.fsGroupPolicy, FS_GROUP_POLICIES));
  const audiences = new Set<string>();
  (s.tokenRequests ?? []).forEach((t, i) => {
    const tp = p.child('tokenRequests').index(i);
    if (audiences.has(t.audience)) { errs.push(duplicate(tp.child('audience'), t.audience)); return; }
    audiences.add(t.audience);
    if (t.expirationSeconds === undefined) return;
    if (t.expirationSeconds < 600) errs.push(invalid(tp.child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration less than 10 minutes'));
    if (t.expirationSeconds > 2 ** 32) errs.push(invalid(tp.child('expirationSeconds'), t.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  for (const m of s.volumeLifecycleModes ?? []) if (!LIFECYCLE_MODES.includes(m)) errs.push(notSupported(p.child('volumeLifecycleModes'), m, LIFECYCLE_MODES));
  if (s.serviceAccountTokenInSecrets !== undefined && s.serviceAccountTokenInSecrets !== null && (s.tokenRequests ?? []).length === 0) {
    errs.push(invalid(p.child('serviceAccountTokenInSecrets'), s.serviceAccountTokenInSecrets, 'serviceAccountTokenInSecrets is set but no tokenRequests are specified'));
  }
  const period = s.nodeAllocatableUpdatePeriodSeconds;
  if (period !== undefined && period < 10) errs.push(invalid(p.child('nodeAllocatableUpdatePeriodSeconds'), period, 'must be greater than or equal to 10 seconds'));
  return errs;
}

const TOKEN_IN_SECRETS_RECOMMENDED = 'spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes';

/** The strategy's warnings: token requests without serviceAccountTokenInSecrets (on update, when they changed). */
function tokenWarnings(d: RO<CSIDriver>, old?: RO<CSIDriver>): string[] {
  const requests = d.spec?.tokenRequests ?? [];
  if (requests.length === 0 || (d.spec?.serviceAccountTokenInSecrets ?? null) !== null) return [];
  if (old !== undefined && deepEqual(old.spec?.tokenRequests ?? [], requests)) return [];
  return [TOKEN_IN_SECRETS_RECOMMENDED];
}

function validateCSIDriver(d: RO<CSIDriver>): FieldError[] {
  return [...validateObjectMeta(d.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }), ...validateSpec(d)];
}

function validateCSIDriverUpdate(d: RO<CSIDriver>, old: RO<CSIDriver>): FieldError[] {
  return [
    ...validateImmutableField(d.spec?.attachRequired ?? null, old.spec?.attachRequired ?? null, fieldPath('spec', 'attachedRequired')),
    ...validateImmutableField(d.spec?.volumeLifecycleModes ?? null, old.spec?.volumeLifecycleModes ?? null, fieldPath('spec', 'volumeLifecycleModes')),
  ];
}

export const csiDrivers = {
  group: 'storage.k8s.io', kind: 'CSIDriver', resource: 'csidrivers', singular: 'csidriver', namespaced: false,
  returnDeletedObject: true, // as kube's storage: a DELETE answers with the object, not a Status
  strategy: specStatusStrategy<CSIDriver>({
    allowUnconditionalUpdate: false, validate: validateCSIDriver, validateUpdate: validateCSIDriverUpdate,
    warningsOnCreate: (d) => tokenWarnings(d),
    warningsOnUpdate: (d, old) => tokenWarnings(d, old),
  }),
  defaults: defaultCSIDriver,
  table: [
    nameColumn<CSIDriver>(),
    column<CSIDriver>('AttachRequired', 'boolean', (d) => d.spec?.attachRequired ?? true),
    column<CSIDriver>('PodInfoOnMount', 'boolean', (d) => d.spec?.podInfoOnMount ?? false),
    column<CSIDriver>('StorageCapacity', 'boolean', (d) => d.spec?.storageCapacity ?? false),
    column<CSIDriver>('TokenRequests', 'string', (d) => (d.spec?.tokenRequests === undefined ? '<unset>' : d.spec.tokenRequests.map((t) => t.audience).join(','))),
    column<CSIDriver>('RequiresRepublish', 'boolean', (d) => d.spec?.requiresRepublish ?? false),
    column<CSIDriver>('Modes', 'string', (d) => (d.spec?.volumeLifecycleModes ?? []).join(',') || '<none>'),
    ageColumn<CSIDriver>(),
  ],
} satisfies ResourceDefinition<CSIDriver>;
