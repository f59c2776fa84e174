// The compact schema shape kapi keeps for every OpenAPI definition of the built-in API:
// structural facts only (types, formats, properties, required fields, Kubernetes extensions),
// no descriptions. `$ref` holds a bare definition name ("io.k8s.api.core.v1.PodSpec"), not
// a JSON pointer; the OpenAPI document builders turn it into the pointer their format wants.
// Counterpart of k8s.io/kube-openapi/pkg/validation/spec (reduced to structural facts).

export interface SchemaGVK { readonly group: string; readonly version: string; readonly kind: string }

export interface SchemaUnion {
  readonly discriminator?: string;
  readonly 'fields-to-discriminateBy': Readonly<Record<string, string>>;
}

export interface SchemaNode {
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly $ref?: string;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly 'x-kubernetes-group-version-kind'?: readonly SchemaGVK[];
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-unions'?: readonly SchemaUnion[];
}

/** The keys the generator keeps from upstream schemas, in output order. */
export const SCHEMA_KEYS = [
  'type', 'format', 'properties', 'required', 'items', 'additionalProperties', '$ref', 'enum', 'default',
  'x-kubernetes-group-version-kind', 'x-kubernetes-patch-strategy', 'x-kubernetes-patch-merge-key',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-unions',
] as const;

export type Definitions = Readonly<Record<string, SchemaNode>>;
