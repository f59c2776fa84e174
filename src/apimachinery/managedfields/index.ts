// Server-side apply and managedFields tracking (structured-merge-diff + kube's fieldmanager).
// Counterpart of k8s.io/apimachinery/pkg/util/managedfields and
// sigs.k8s.io/structured-merge-diff/v6/merge.
export { apply, updateManagedFields, type ApplyArgs, type FieldManagerScope, type UpdateManagedFieldsArgs } from './field-manager.ts';
export { applyConfiguration, fieldsOf, resetFieldsOf } from './fields.ts';
export { conflictMessage, newApplyConflict, printManager, type Conflict } from './conflict.ts';
export { LAST_APPLIED_CONFIG_ANNOTATION } from './last-applied.ts';
export {
  buildManagerIdentifier, decodeManagedFields, encodeManagedFields, formatTime, isResetManagedFields,
  type Managed, type ManagerInfo, type VersionedSet,
} from './managed.ts';
export {
  FIELD_MANAGER_MAX_LENGTH, managerOrUserAgent, prefixFromUserAgent, validateFieldManager, validatePatchFieldManager,
} from './manager-name.ts';
export {
  fieldElement, indexElement, keyElement, pathToString, valueElement, type KeyField, type Path, type PathElement,
} from './path-element.ts';
export { FieldSet } from './set.ts';
export { replicasPath, scaleToParent, scaleToSubresource } from './scale-handler.ts';
export {
  ConversionError, withConversions, type AsyncVersionConverter, type VersionConverter,
} from './version-converter.ts';
export { validateTyped, validationErrorsMessage, type ValidationError } from './validate.ts';
