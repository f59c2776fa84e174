// The authorization contracts (k8s.io/apiserver/pkg/authorization/authorizer): who asks to do
// what (Attributes), an Authorizer's answer (Decision and reason), and the rules a RuleResolver
// says a user holds (for SelfSubjectRulesReview).
import type { UserInfo } from '../apimachinery/request/context.ts';

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

/** authorizer.ResourceRuleInfo, in the wire shape of authorization.k8s.io/v1 ResourceRule. */
export interface ResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** authorizer.NonResourceRuleInfo. */
export interface NonResourceRuleInfo {
  readonly verbs: readonly string[];
  readonly nonResourceURLs: readonly string[];
}

export interface RulesResult {
  readonly resourceRules: readonly ResourceRuleInfo[];
  readonly nonResourceRules: readonly NonResourceRuleInfo[];
  /** True when some authorizer cannot list what it would allow (webhooks). */
  readonly incomplete: boolean;
  /** Rules could only be partly resolved (a binding to a missing role); what was found is still returned. */
  readonly error?: Error;
}

export interface RuleResolver {
  /** The rules `user` holds in `namespace` (cluster-wide ones included). Never rejects: see `error`. */
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}

/** An Attributes value with every field not given empty (authorizer.AttributesRecord{}). */
export function attributesRecord(fields: Partial<Attributes> & { readonly user: UserInfo | undefined; readonly verb: string }): Attributes {
  return {
    resourceRequest: false, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '', path: '',
    ...fields,
  };
}

/** Go's errors.New: an Error with only a message. */
export const goError = (message: string): Error => new Error(message);

/**
 * utilerrors.NewAggregate(errs).Error(): one message as it is, several deduplicated and joined as
 * `[a, b]`; undefined for none.
 */
export function aggregateError(errs: readonly Error[]): Error | undefined {
  if (errs.length === 0) return undefined;
  if (errs.length === 1) return errs[0];
  const seen = [...new Set(errs.map((e) => e.message))];
  return new Error(seen.length === 1 ? (seen[0] ?? '') : `[${seen.join(', ')}]`);
}
