export type { Definitions, SchemaGVK, SchemaNode, SchemaUnion } from './types.ts';
export { closureOf, definitionForGVK, getDefinitions, getSchema, resolveSchema, schemaForGVK } from './definitions.ts';
export { elementSchema, fieldMeta, fieldMetaAtPath, schemaAtPath, type FieldMeta } from './field-meta.ts';
