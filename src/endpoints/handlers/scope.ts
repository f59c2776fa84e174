// What a handler needs to know about the endpoint it serves (RequestScope in Go).
// Counterpart of k8s.io/apiserver/pkg/endpoints/handlers/rest.go (RequestScope).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { SchemaNode } from '../../apimachinery/openapi/index.ts';
import type { AsyncVersionConverter } from '../../apimachinery/managedfields/index.ts';
import type { Scheme } from '../../apimachinery/runtime/scheme.ts';
import type { GroupVersion, GroupVersionKind } from '../../apimachinery/schema/group-version.ts';
import type { AdmissionChain } from '../../admission/interfaces.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import type { RequestState } from '../request/state.ts';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

/** Decodes a request body of this endpoint's kind; problems are unknown or duplicate fields. */
export type BodyDecoder = (raw: string, format: 'json' | 'yaml', gvk: GroupVersionKind,
  directive: FieldValidationDirective) => { obj: unknown; problems: string[] };

/** One resource or subresource of one group version, as routes see it. */
export interface ResourceEndpoint {
  readonly groupVersion: GroupVersion;
  /** The version the Store works in; request bodies convert to it, responses from it. */
  readonly hubVersion: GroupVersion;
  readonly resource: string;
  readonly subresource: string;
  /** Kind of the objects served here, in kindGroupVersion. */
  readonly kind: string;
  /** The group version of `kind`: groupVersion, except for subresources like scale (autoscaling/v1 Scale). */
  readonly kindGroupVersion: GroupVersion;
  readonly namespaced: boolean;
  /** Implements some of the capabilities in registry/rest/capabilities.ts. */
  readonly storage: object;
  readonly definition: ResourceDefinition<KubeObject>;
  /** Verbs this endpoint serves, derived from the storage's capabilities. */
  readonly verbs: readonly string[];
  /** The schema server-side apply types fields with; default: the built-in OpenAPI definition of the kind. */
  readonly fieldsSchema?: SchemaNode;
  /**
   * How the kind converts to its other versions when that may call out (a CRD's conversion
   * webhook): managers recorded in another version are compared in theirs. Undefined: one shape.
   */
  readonly versionConverter?: AsyncVersionConverter;
  /** A subresource kind's Go zero values (serviceaccounts/token's TokenRequest status). */
  readonly subresourceZeroValues?: (obj: KubeObject) => void;
}

export interface HandlerDeps {
  readonly scheme: Scheme;
  readonly admission: AdmissionChain;
  readonly decodeBody: BodyDecoder;
  /** Seconds a watch lasts without timeoutSeconds (kube: random in [min, 2*min) of --min-request-timeout). */
  readonly minRequestTimeoutSeconds: number;
  /**
   * false: PATCH refuses strategic merge patches with 415, as kube does for custom resources
   * (their schemas carry no patch strategies). Default true.
   */
  readonly strategicMergePatch?: boolean;
  /**
   * Converts an object to another version of its kind when that may call out (a CRD's conversion
   * webhook): admission webhooks registered for another version get the object converted so.
   */
  readonly convertObject?: (obj: KubeObject, gv: GroupVersion) => Promise<KubeObject>;
  /** Ends each open watch; shutdown calls them all. */
  readonly openWatches: Set<() => void>;
}

export type ResourceHandler = (ep: ResourceEndpoint, deps: HandlerDeps, req: IncomingMessage, res: ServerResponse,
  state: RequestState) => Promise<void>;

/**
 * Built-in resources are go-restful routes in kube, whose router checks a PATCH's Content-Type
 * and every request's Accept before kube's handler runs; custom resources (served without
 * strategic merge patch) are not.
 */
export const isRestfulRoute = (deps: HandlerDeps): boolean => deps.strategicMergePatch !== false;

/**
 * Built-in resources are typed Go structs in kube: the items of their lists are converted one by
 * one and only the list itself gets kind and apiVersion. Custom resources are unstructured maps
 * that keep theirs.
 */
export const servesTypedObjects = (deps: HandlerDeps): boolean => deps.strategicMergePatch !== false;
