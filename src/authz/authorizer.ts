// The authorization contracts (k8s.io/apiserver/pkg/authorization/authorizer): who asks to do
// what (Attributes), an Authorizer's answer (Decision and reason), and the rules a RuleResolver
// says a user holds (for SelfSubjectRulesReview).
import type { UserInfo } from '../apimachinery/request/context.ts';

export type { Attributes, AuthorizationResult, Authorizer, Decision } from '../apimachinery/authorization/authorizer.ts';
export { attributesRecord } from '../apimachinery/authorization/authorizer.ts';

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
