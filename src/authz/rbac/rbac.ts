// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go): allows a request when a rule
// that applies to the user matches it; otherwise no opinion, with `RBAC: <errors>` as the reason
// when some binding could not be resolved.
import type { UserInfo } from '../../apimachinery/request/context.ts';
import {
  aggregateError, type Attributes, type AuthorizationResult, type Authorizer, type NonResourceRuleInfo,
  type ResourceRuleInfo, type RuleResolver, type RulesResult,
} from '../authorizer.ts';
import { ruleAllows } from './evaluation-helpers.ts';
import { DefaultRuleResolver } from './rule.ts';
import type { RBACListers } from './types.ts';

export class RBACAuthorizer implements Authorizer, RuleResolver {
  readonly resolver: DefaultRuleResolver;

  constructor(listers: RBACListers) {
    this.resolver = new DefaultRuleResolver(listers);
  }

  /** Synchronous, from the listers (an in-memory index): the filter's fast path. */
  decide(a: Attributes): AuthorizationResult {
    const user = a.user;
    if (user === undefined) return { decision: 'NoOpinion', reason: '' };
    let allowedBy: string | undefined;
    const errors: Error[] = [];
    this.resolver.visitRulesFor(user, a.namespace, (source, rule, err) => {
      if (rule !== undefined && source !== undefined && ruleAllows(a, rule)) {
        allowedBy = source.describe();
        return false;
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}` };
    const agg = aggregateError(errors);
    return { decision: 'NoOpinion', reason: agg === undefined ? '' : `RBAC: ${agg.message}` };
  }

  authorize(a: Attributes): Promise<AuthorizationResult> {
    return Promise.resolve(this.decide(a));
  }

  /** Rules with resources become resource rules, rules with URLs non-resource rules; never incomplete. */
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const { rules, errors } = this.resolver.rulesFor(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        resourceRules.push({ verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames ?? [] });
      }
      if ((r.nonResourceURLs ?? []).length > 0) {
        nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] });
      }
    }
    const error = aggregateError(errors);
    return Promise.resolve({ resourceRules, nonResourceRules, incomplete: false, ...(error !== undefined ? { error } : {}) });
  }
}
