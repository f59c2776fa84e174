// Label keys and values are checked with the shared validators (content.IsLabelKey/IsLabelValue).
export { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, LABEL_VALUE_MAX_LENGTH } from '../validation/validation.ts';
