// The authorizer contract (k8s.io/apiserver/pkg/authorization/authorizer): who asks to do what
// (Attributes) and an Authorizer's answer. It sits below the layers that ask (admission, the
// filters) and the one that answers (authz), so that all of them name the same types.
import type { UserInfo } from '../request/context.ts';

/** authorizer.Decision, by its Go name so that it reads the same in logs. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** authorizer.Attributes: the request as an authorizer sees it. */
export interface Attributes {
  readonly user: UserInfo | undefined;
  /** get, list, watch, create, update, patch, delete, deletecollection, impersonate, bind, escalate, ...; for non-resource requests the lower-cased HTTP method. */
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** '' for cluster-scoped and non-resource requests. */
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The path of a non-resource request. */
  readonly path: string;
  /** The raw fieldSelector of a list or watch (the Node authorizer reads spec.nodeName from it). */
  readonly fieldSelector?: string;
  /** The raw labelSelector of a list or watch (sent to authorization webhooks). */
  readonly labelSelector?: string;
}

export interface AuthorizationResult {
  readonly decision: Decision;
  /** Why; RBAC explains allows ("RBAC: allowed by ...") and resolution errors ("RBAC: ..."). */
  readonly reason: string;
  /** An evaluation error: with a decision other than Allow the request fails with 500. */
  readonly error?: Error;
}

export interface Authorizer {
  /**
   * Decides on `attributes`. Never rejects: failures to evaluate come back as `error` (with
   * NoOpinion), so that a union can still ask the next authorizer.
   */
  authorize(attributes: Attributes): Promise<AuthorizationResult>;
}

/** An Attributes value with every field not given empty (authorizer.AttributesRecord{}). */
export function attributesRecord(fields: Partial<Attributes> & { readonly user: UserInfo | undefined; readonly verb: string }): Attributes {
  return {
    resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: '',
    ...fields,
  };
}
