// The CRD strategies (pkg/registry/customresourcedefinition/strategy.go): status is the
// server's (reset on create, kept on update); generation starts at 1 and bumps when the spec
// changes; the status subresource changes only status.
import { deepEqual } from '../../apimachinery/validation/object-meta.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { DeepReadonly, Strategy } from '../../registry/rest/strategy.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionSpec, CustomResourceDefinitionStatus } from '../v1/types.ts';
import { dropOmittedSchemaFields } from './omit-empty.ts';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.ts';

const copy = <T>(v: DeepReadonly<T>): T => structuredClone(v) as T;


function dropOmitted(crd: CustomResourceDefinition): void {
  for (const v of crd.spec.versions ?? []) {
    const s = v.schema?.openAPIV3Schema;
    if (typeof s === 'object' && s !== null) dropOmittedSchemaFields(s);
  }
}

/** Adds the storage version to status.storedVersions, as kube's strategy does on every write. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = (crd.spec.versions ?? []).find((v) => v.storage)?.name;
  if (storage === undefined) return;
  crd.status ??= {};
  const stored = crd.status.storedVersions ?? [];
  if (!stored.includes(storage)) crd.status.storedVersions = [...stored, storage];
}

export const crdStrategy: Strategy<CustomResourceDefinition> = {
  prepareForCreate(_ctx: RequestContext, crd) {
    // Conditions and accepted names are the controllers' to set; the storage version is recorded now.
    // storedVersions stays absent (Go's nil) without a storage version: validation names it null.
    crd.status = { conditions: null, acceptedNames: { plural: '', kind: '' } };
    crd.metadata.generation = 1;
    dropOmitted(crd);
    recordStorageVersion(crd);
  },
  validate: (_ctx, crd) => validateCRD(crd),
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: false,
  prepareForUpdate(_ctx, crd, old) {
    if (old.status !== undefined) crd.status = copy<CustomResourceDefinitionStatus>(old.status); else delete crd.status;
    dropOmitted(crd);
    if (!deepEqual(crd.spec, old.spec)) crd.metadata.generation = (old.metadata.generation ?? 0) + 1;
    recordStorageVersion(crd);
  },
  validateUpdate: (_ctx, crd, old) => validateCRDUpdate(crd, old),
};

export const crdStatusStrategy: Strategy<CustomResourceDefinition> = {
  ...crdStrategy,
  prepareForUpdate(_ctx, crd, old) {
    crd.spec = copy<CustomResourceDefinitionSpec>(old.spec);
    // kube means to reset metadata here but resets it from the new object itself
    // (kubernetes/kubernetes#137681): label, annotation, finalizer changes are stored, and
    // managedFields record them (its reset fields leave metadata out to match).
  },
  validateUpdate: (_ctx, crd) => validateCRDStatusUpdate(crd),
};
