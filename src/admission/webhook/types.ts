// The admissionregistration.k8s.io/v1 webhook configuration fields the webhook plugins read, and
// admission.k8s.io AdmissionReview (v1 and v1beta1 share the shape), as JSON on the wire.
// Counterpart of k8s.io/api/admissionregistration/v1 (types.go) and k8s.io/api/admission/v1.
import type { LabelSelector } from '../../apimachinery/labels/label-selector.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';

export interface Rule {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  readonly scope?: string;
}

export interface ClientConfig {
  readonly url?: string;
  readonly service?: { readonly namespace?: string; readonly name?: string; readonly path?: string; readonly port?: number };
  /** Base64 of PEM certificates. */
  readonly caBundle?: string;
}

export interface MatchCondition { readonly name?: string; readonly expression?: string }

/** A ValidatingWebhook or MutatingWebhook (stored with v1 defaults). */
export interface WebhookSpec {
  readonly name?: string;
  readonly clientConfig?: ClientConfig;
  readonly rules?: readonly Rule[];
  readonly failurePolicy?: string;
  readonly matchPolicy?: string;
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly sideEffects?: string;
  readonly timeoutSeconds?: number;
  readonly admissionReviewVersions?: readonly string[];
  readonly reinvocationPolicy?: string;
  readonly matchConditions?: readonly MatchCondition[];
}

export interface WebhookConfiguration extends KubeObject {
  readonly webhooks?: readonly WebhookSpec[];
}

export interface GVKWire { group: string; version: string; kind: string }
export interface GVRWire { group: string; version: string; resource: string }

export interface AdmissionRequest {
  uid: string;
  kind: GVKWire;
  resource: GVRWire;
  subResource?: string;
  requestKind: GVKWire;
  requestResource: GVRWire;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username?: string; uid?: string; groups?: readonly string[]; extra?: Readonly<Record<string, readonly string[]>> };
  object: unknown;
  oldObject: unknown;
  dryRun: boolean;
  options: unknown;
}

export interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request: AdmissionRequest;
}
