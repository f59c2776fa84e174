// Field validation of request bodies. Counterpart of k8s.io/apimachinery/pkg/runtime/serializer/json
// (strict decoding).
export { decodeBody, DecodeError, shapeForGVK, summarizeData, type BodyMediaType, type DecodeBodyOptions, type DecodedBody } from './decode.ts';
export { parseFieldValidation, validateFieldDirective, type FieldValidationDirective, type WriteOptionsKind } from './directive.ts';
export { ANY, customResourceShape, shapeOf, type Shape } from './shape.ts';
export { decodeStrictJSON, jsonSyntaxError, JSONSyntaxError, type StrictDecodeResult } from './strict-json.ts';
export { walkValue, type WalkResult } from './walk.ts';
export { fromUnstructuredError } from './from-unstructured.ts';
export { yamlToJSON, YAMLConversionError, type YAMLConversion } from './yaml.ts';
export { decodeConfigFile, type ConfigFileValue } from './config-file.ts';
export { goQuote } from '../goformat/index.ts';
export { scanJSON, type JSONScan } from './json-scan.ts';
export { yamlNestingBound } from './yaml-depth.ts';
