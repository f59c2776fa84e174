// admissionregistration.k8s.io/v1 wire types (fields kapi reads; CEL expressions are stored as text).
// Counterpart of k8s.io/api/admissionregistration/v1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  /** Only in admission policies' match resources (NamedRuleWithOperations). */
  resourceNames?: string[];
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

export interface Webhook {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: MatchCondition[];
}

export interface MatchCondition { name?: string; expression?: string }

export interface WebhookConfiguration extends KubeObject {
  webhooks?: Webhook[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: RuleWithOperations[];
  excludeResourceRules?: RuleWithOperations[];
  matchPolicy?: string;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

export interface AdmissionPolicy extends KubeObject {
  spec?: {
    paramKind?: { apiVersion?: string; kind?: string };
    matchConstraints?: MatchResources;
    validations?: { expression?: string; message?: string; messageExpression?: string; reason?: string }[];
    auditAnnotations?: { key?: string; valueExpression?: string }[];
    mutations?: { patchType?: string; jsonPatch?: { expression?: string }; applyConfiguration?: { expression?: string } }[];
    failurePolicy?: string;
    reinvocationPolicy?: string;
    variables?: { name?: string; expression?: string }[];
    matchConditions?: MatchCondition[];
  };
  status?: Record<string, unknown>;
}

export interface AdmissionPolicyBinding extends KubeObject {
  spec?: {
    policyName?: string;
    paramRef?: ParamRef;
    matchResources?: MatchResources;
    validationActions?: string[];
  };
}
