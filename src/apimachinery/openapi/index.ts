// Access to the built-in API's OpenAPI schemas. Counterpart of k8s.io/kube-openapi/pkg/common and
// pkg/generated/openapi.
export type { Definitions, SchemaGVK, SchemaNode, SchemaUnion } from './types.ts';
export { closureOf, definitionForGVK, getDefinitions, getSchema, resolveSchema, schemaForGVK } from './definitions.ts';
export { elementSchema, fieldMeta, fieldMetaAtPath, schemaAtPath, type FieldMeta } from './field-meta.ts';
