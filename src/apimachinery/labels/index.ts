// Label selectors (k8s.io/apimachinery/pkg/labels).
export { parseLabelSelectorParam, parseSelector, parseToRequirements } from './parser.ts';
export {
  BINARY_OPERATORS, LabelSelectorError, Requirement, newRequirement, parseInt64, type Labels, type Operator,
} from './requirement.ts';
export { addRequirements, everything, newSelector, nothing, selectorFromSet, type Selector } from './selector.ts';
export {
  formatLabelSelector, labelSelectorAsSelector, type LabelSelector, type LabelSelectorOperator,
  type LabelSelectorRequirement,
} from './label-selector.ts';
export { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, LABEL_VALUE_MAX_LENGTH } from './validation.ts';
