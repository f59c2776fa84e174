// The CRD strategies (pkg/registry/customresourcedefinition/strategy.go): status is the
// server's (reset on create, kept on update); generation starts at 1 and bumps when the spec
// changes; the status subresource changes only status.
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { specStatusStrategy, statusStrategy } from '../../registry/rest/kit.ts';
import type { CustomResourceDefinition } from '../v1/types.ts';
import { dropOmittedSchemaFields } from './omit-empty.ts';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate } from './validation.ts';

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

export const crdStrategy = specStatusStrategy<CustomResourceDefinition>({
  validate: validateCRD,
  hasStatus: true,
  generation: true,
  allowUnconditionalUpdate: false,
  prepareForCreate(_ctx: RequestContext, crd) {
    // Conditions and accepted names are the controllers' to set; the storage version is recorded now.
    // storedVersions stays absent (Go's nil) without a storage version: validation names it null.
    crd.status = { conditions: null, acceptedNames: { plural: '', kind: '' } };
    dropOmitted(crd);
    recordStorageVersion(crd);
  },
  normalizeForUpdate(_ctx, crd) { dropOmitted(crd); },
  prepareForUpdate(_ctx, crd) { recordStorageVersion(crd); },
  revalidateOnUpdate: false,
  validateUpdate: (crd, old) => validateCRDUpdate(crd, old),
});

// kube means to reset metadata here but resets it from the new object itself
// (kubernetes/kubernetes#137681): label, annotation, finalizer changes are stored, and
// managedFields record them (its reset fields leave metadata out to match).
export const crdStatusStrategy = statusStrategy(crdStrategy, { validate: (crd) => validateCRDStatusUpdate(crd) });
