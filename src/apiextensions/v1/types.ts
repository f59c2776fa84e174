// Wire shapes of apiextensions.k8s.io/v1 (only what kapi reads or writes).
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go.
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';

/** A JSON schema as CRDs carry it (JSONSchemaProps); kept loose where kube accepts any JSON. */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  default?: unknown;
  enum?: unknown[];
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  nullable?: boolean;
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  $ref?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: ValidationRule[];
}

/** One x-kubernetes-validations entry: a CEL rule with how its failure is reported. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate. */
  reason?: string;
  /** Where errors point, relative to the rule's node (".spec.x", "['a.b']"). */
  fieldPath?: string;
  /** Evaluate the transition rule even without an old value (oldSelf is then an optional). */
  optionalOldSelf?: boolean;
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

export interface SelectableField { jsonPath: string }

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  /** Defaulted to 443. */
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** base64 of PEM certificates. */
  caBundle?: string;
}

export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  conversionReviewVersions?: string[];
}

export interface CustomResourceConversion {
  strategy: 'None' | 'Webhook' | string;
  webhook?: WebhookConversion;
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: 'Namespaced' | 'Cluster' | string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  /** Go's field has no omitempty: a CRD no controller has looked at yet shows `conditions: null`. */
  conditions?: CustomResourceDefinitionCondition[] | null;
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

export type CustomResourceDefinitionList = KubeList<CustomResourceDefinition>;

export const GROUP = 'apiextensions.k8s.io';
/** kube's CRD finalizer: CRs are deleted before the CRD goes away. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** The condition of that type, or undefined. */
export function conditionOf(crd: { readonly status?: { readonly conditions?: readonly CustomResourceDefinitionCondition[] | null } | undefined },
  type: string): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isEstablished(crd: { readonly status?: { readonly conditions?: readonly CustomResourceDefinitionCondition[] | null } | undefined }): boolean {
  return conditionOf(crd, 'Established')?.status === 'True';
}
