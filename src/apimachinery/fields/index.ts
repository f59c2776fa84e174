// Field selectors (k8s.io/apimachinery/pkg/fields) and the selection predicate.
export {
  escapeValue, everythingFields, FieldSelectorError, fieldSelectorFromSet, newFieldSelector, oneTermEqualSelector,
  parseFieldSelector, transformFieldSelector, unescapeValue,
  type FieldOperator, type FieldRequirement, type Fields, type FieldSelector, type FieldTransform,
} from './selector.ts';
export {
  convertFieldSelector, defaultMetaV1FieldSelectorConversion, fieldLabelNotSupported, parseFieldSelectorParam, supportedFieldLabels,
  validateFieldSelector, type FieldLabelMessage,
} from './conversion.ts';
export { newSelectionPredicate, type GetFieldSet, type LabelFieldPredicate } from './predicate.ts';
