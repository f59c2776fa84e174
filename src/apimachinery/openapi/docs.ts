// What kapi publishes about the built-in definitions beyond their structure: descriptions, enum
// lists and (OpenAPI v3 only) defaults, as kube-apiserver v1.36 serves them. They weigh about ten
// times the structural facts and only the OpenAPI documents need them, so they live in their own
// generated module, loaded on the first OpenAPI request rather than at start-up.
// Counterpart of the descriptions kube-openapi's builder copies from pkg/generated/openapi.
import type { SchemaNode } from './types.ts';

/** The documentation of one schema node; nested nodes follow the structural schema's shape. */
export interface SchemaDocs {
  readonly description?: string;
  readonly enum?: readonly unknown[];
  /** Published in v3 only: kube prunes defaults from the v2 document. */
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, SchemaDocs>>;
  readonly items?: SchemaDocs;
  readonly additionalProperties?: SchemaDocs;
  /**
   * v3 only: the node is a oneOf of these instead of its v2 `type` (Quantity and IntOrString,
   * which v2 publishes as strings).
   */
  readonly oneOf?: readonly SchemaNode[];
}

export type DefinitionDocs = Readonly<Record<string, SchemaDocs>>;

/** The texts of the built-in operations (see scripts/openapi-docs.ts buildOperationDocs). */
export interface OperationDocs {
  /** operationId → description. */
  readonly operations: Readonly<Record<string, string>>;
  /**
   * "<subresource>|<method or *>|<name>" (or "*|*|<name>", or "<path>|<name>" where the text
   * depends on the path) → the parameter's description.
   */
  readonly params: Readonly<Record<string, string>>;
  /** path → the description of its "name" path parameter. */
  readonly names: Readonly<Record<string, string>>;
}

let loaded: Promise<{ definitions: DefinitionDocs; operations: OperationDocs }> | undefined;

function load(): Promise<{ definitions: DefinitionDocs; operations: OperationDocs }> {
  loaded ??= import('../../generated/openapi-docs.gen.ts').then((m) => ({
    definitions: JSON.parse(m.docsJSON) as DefinitionDocs,
    operations: JSON.parse(m.operationsJSON) as OperationDocs,
  }));
  return loaded;
}

/** The docs of every built-in definition, by definition name; parsed once, on first call. */
export async function loadDefinitionDocs(): Promise<DefinitionDocs> {
  return (await load()).definitions;
}

/** The texts of the built-in operations and their parameters; parsed once, on first call. */
export async function loadOperationDocs(): Promise<OperationDocs> {
  return (await load()).operations;
}
