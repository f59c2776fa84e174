// Strategic merge patch. Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch.
export { applyStrategicMergePatch, toJsonObject } from './strategic-merge-patch.ts';
export { createThreeWayMergePatch, createTwoWayMergePatch } from './create-patch.ts';
export { mergingMapsHaveConflicts } from './conflicts.ts';
export { interpretStrategicMergePatchError, PatchError, type PatchErrorKind } from './errors.ts';
export { patchMetaFromSchema, type LookupPatchMeta, type PatchMeta, type PatchMetaLookup } from './patch-meta.ts';
export { setKey, type JsonObject, type JsonValue } from './json-value.ts';
