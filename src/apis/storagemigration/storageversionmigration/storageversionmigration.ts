// StorageVersionMigrations (pkg/registry/storagemigration/storagemigration, validation in
// pkg/apis/storagemigration/validation): cluster-scoped, status subresource. Status is reset on
// create and kept on update; spec is immutable; updates need a resourceVersion. The status
// subresource keeps spec and the metadata ResetObjectMetaForStatus keeps.
import { fieldPath, GoSyntax, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateConditions, type MetaCondition } from '../../../apimachinery/validation/conditions.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { copyOf, nameColumn, setOptional, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { goQuote, goTime } from '../../../apimachinery/goformat/index.ts';
import type { StorageVersionMigration } from '../v1beta1/types.ts';

type RO<T> = DeepReadonly<T>;

function validateStorageVersionMigration(svm: RO<StorageVersionMigration>): FieldError[] {
  const errs = validateObjectMeta(svm.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const p = fieldPath('spec', 'resource');
  const resource = svm.spec?.resource?.resource ?? '';
  // Same rules as an APIService: the resource a DNS-1035 label, the group a DNS-1123 subdomain.
  if (resource === '') errs.push(required(p.child('resource'), 'resource is required to be set'));
  else {
    const msgs = isDNS1035Label(resource);
    if (msgs.length > 0) errs.push(invalid(p.child('resource'), resource, msgs.join(',')));
  }
  const group = svm.spec?.resource?.group ?? '';
  if (group !== '') {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(invalid(p.child('group'), group, msgs.join(',')));
  }
  return errs;
}

const goSpec = (svm: RO<StorageVersionMigration>): GoSyntax => new GoSyntax(
  `storagemigration.StorageVersionMigrationSpec{Resource:v1.GroupResource{Group:${goQuote(svm.spec?.resource?.group ?? '')}, Resource:${goQuote(svm.spec?.resource?.resource ?? '')}}}`);

function validateStorageVersionMigrationUpdate(svm: RO<StorageVersionMigration>, old: RO<StorageVersionMigration>): FieldError[] {
  const errs = validateStorageVersionMigration(svm).filter((e) => e.field !== 'metadata' && !e.field.startsWith('metadata.'));
  const spec = { group: svm.spec?.resource?.group ?? '', resource: svm.spec?.resource?.resource ?? '' };
  const oldSpec = { group: old.spec?.resource?.group ?? '', resource: old.spec?.resource?.resource ?? '' };
  if (!deepEqual(spec, oldSpec)) errs.push(invalid('spec', goSpec(svm), 'field is immutable'));
  return errs;
}

const isTrue = (svm: RO<StorageVersionMigration>, type: string): boolean =>
  (svm.status?.conditions ?? []).find((c) => c.type === type)?.status === 'True';

const goConditions = (conditions: RO<MetaCondition[]> | undefined): GoSyntax => new GoSyntax(`[]v1.Condition{${(conditions ?? []).map((c) =>
  `v1.Condition{Type:${goQuote(c.type ?? '')}, Status:${goQuote(c.status ?? '')}, ObservedGeneration:${c.observedGeneration ?? 0}, ` +
  `LastTransitionTime:${goTime(c.lastTransitionTime)}, Reason:${goQuote(c.reason ?? '')}, Message:${goQuote(c.message ?? '')}}`).join(', ')}}`);

/** resourceversion.CompareResourceVersion(rv, rv): a positive integer without leading zeros. */
const wellFormedRV = (rv: string): boolean => /^[1-9][0-9]*$/.test(rv);

function validateStorageVersionMigrationStatusUpdate(svm: RO<StorageVersionMigration>, old: RO<StorageVersionMigration>): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('status');
  const rv = svm.status?.resourceVersion ?? '';
  if (!wellFormedRV(rv)) errs.push(invalid(p.child('resourceVersion'), rv, `resource version is not well formed: ${rv}`));
  errs.push(...validateConditions(svm.status?.conditions, p.child('conditions')));
  const oldRV = old.status?.resourceVersion ?? '';
  if (oldRV !== '' && oldRV !== rv) errs.push(invalid(p.child('resourceVersion'), rv, 'field is immutable'));
  const conditions = (): GoSyntax => goConditions(svm.status?.conditions);
  const succeeded = isTrue(svm, 'Succeeded');
  const failed = isTrue(svm, 'Failed');
  const running = isTrue(svm, 'Running');
  if (succeeded && failed) errs.push(invalid(p.child('conditions'), conditions(), 'Both success and failed conditions cannot be true at the same time'));
  if (succeeded && running) errs.push(invalid(p.child('conditions'), conditions(), 'Running condition cannot be true when success condition is true'));
  if (failed && running) errs.push(invalid(p.child('conditions'), conditions(), 'Running condition cannot be true when failed condition is true'));
  if (isTrue(old, 'Succeeded') && !succeeded) errs.push(invalid(p.child('conditions'), conditions(), 'Success condition cannot be set to false once it is true'));
  if (isTrue(old, 'Failed') && !failed) errs.push(invalid(p.child('conditions'), conditions(), 'Failed condition cannot be set to false once it is true'));
  return errs;
}

const strategy = specStatusStrategy<StorageVersionMigration>({
  prepareForCreate(_ctx, svm) { svm.status = {}; },
  validate: (svm) => validateStorageVersionMigration(svm),
  allowUnconditionalUpdate: false,
  prepareForUpdate(_ctx, svm, old) {
    setOptional(svm, 'status', old.status === undefined ? undefined : copyOf<StorageVersionMigration['status']>(old.status));
  },
  revalidateOnUpdate: false,
  validateUpdate: (svm, old) => validateStorageVersionMigrationUpdate(svm, old),
  // Go always writes spec.resource's group and resource, status (a struct), and a condition's
  // message (none of them omitempty).
  canonicalize(svm) {
    svm.spec ??= {};
    svm.spec.resource ??= {};
    svm.spec.resource.group ??= '';
    svm.spec.resource.resource ??= '';
    svm.status ??= {};
    for (const c of svm.status.conditions ?? []) c.message ??= '';
  },
});

const migrationStatusStrategy = statusStrategy<StorageVersionMigration>(strategy, {
  resetMetadata: {},
  validate: (svm, old) => validateStorageVersionMigrationStatusUpdate(svm, old),
});

/** GroupResource.String(): "resource.group", or the resource alone in the core group. */
const groupResource = (svm: RO<StorageVersionMigration>): string => {
  const r = svm.spec?.resource;
  return (r?.group ?? '') === '' ? r?.resource ?? '' : `${r?.resource ?? ''}.${r?.group ?? ''}`;
};

export const storageVersionMigrations = {
  group: 'storagemigration.k8s.io', kind: 'StorageVersionMigration', resource: 'storageversionmigrations',
  singular: 'storageversionmigration', namespaced: false,
  strategy,
  statusStrategy: migrationStatusStrategy,
  table: [
    { ...nameColumn<StorageVersionMigration>(), format: '' },
    // kube prints no Age here.
    { name: 'Resource', type: 'string', description: 'Fully qualified resource to migrate', cell: (svm) => groupResource(svm) },
  ],
} satisfies ResourceDefinition<StorageVersionMigration>;
