// ControllerRevisions (pkg/registry/apps/controllerrevision): immutable snapshots of a
// controller's state; data is required and immutable, revision non-negative.
import { fieldPath, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateImmutableField, validateNonnegativeField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { ControllerRevision } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

function validateControllerRevision(r: RO<ControllerRevision>): FieldError[] {
  const errs = validateObjectMeta(r.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }, fieldPath('metadata'));
  errs.push(...validateNonnegativeField(r.revision ?? 0, fieldPath('revision')));
  return errs;
}

/** ValidateControllerRevisionCreate: data is required and must be a JSON object. */
function validateControllerRevisionCreate(r: RO<ControllerRevision>): FieldError[] {
  const errs = validateControllerRevision(r);
  const data: unknown = r.data;
  if (data === undefined || data === null) errs.push(required(fieldPath('data'), 'data is mandatory'));
  else if (typeof data !== 'object' || Array.isArray(data)) errs.push(required(fieldPath('data'), 'data must be a valid JSON object'));
  return errs;
}

function validateControllerRevisionUpdate(r: RO<ControllerRevision>, old: RO<ControllerRevision>): FieldError[] {
  return [
    ...validateControllerRevision(r).filter((e) => !e.field.startsWith('metadata')),
    ...validateImmutableField(r.data, old.data, fieldPath('data')),
  ];
}

/** "<kind lowercased>.<group>/<name>" of the controller owner, as printControllerRevision shows it. */
function controllerName(r: RO<ControllerRevision>): string {
  const ref = (r.metadata.ownerReferences ?? []).find((o) => o.controller === true);
  if (ref === undefined) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = group === '' ? ref.kind : `${ref.kind}.${group}`;
  return kind === '' ? ref.name : `${kind.toLowerCase()}/${ref.name}`;
}

export const controllerRevisions = {
  group: 'apps', kind: 'ControllerRevision', resource: 'controllerrevisions', singular: 'controllerrevision', namespaced: true,
  // apps/v1 ControllerRevision.revision has no omitempty: Go writes 0
  goZeroValues: (o) => setZero(o, ['revision'], 0),
  strategy: specStatusStrategy<ControllerRevision>({
    validate: (r) => validateControllerRevisionCreate(r),
    revalidateOnUpdate: false,
    validateUpdate: (r, old) => validateControllerRevisionUpdate(r, old),
  }),
  table: [
    nameColumn<ControllerRevision>(),
    { name: 'Controller', type: 'string', cell: (r) => controllerName(r) },
    { name: 'Revision', type: 'string', cell: (r) => r.revision ?? 0 },
    ageColumn<ControllerRevision>(),
  ],
} satisfies ResourceDefinition<ControllerRevision>;
