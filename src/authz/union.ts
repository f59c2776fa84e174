// k8s.io/apiserver/pkg/authorization/union: ask each authorizer in turn; the first Allow or Deny
// decides. When all have no opinion, their reasons are joined with newlines and their errors
// aggregated. Rule resolvers are unioned by concatenating their rules.
import {
  aggregateError, type Attributes, type AuthorizationResult, type Authorizer, type NonResourceRuleInfo,
  type ResourceRuleInfo, type RuleResolver, type RulesResult,
} from './authorizer.ts';
import type { UserInfo } from '../apimachinery/request/context.ts';

export function newUnionAuthorizer(...authorizers: Authorizer[]): Authorizer {
  return {
    async authorize(a: Attributes): Promise<AuthorizationResult> {
      const errors: Error[] = [];
      const reasons: string[] = [];
      for (const authz of authorizers) {
        const r = await authz.authorize(a);
        if (r.error !== undefined) errors.push(r.error);
        if (r.reason !== '') reasons.push(r.reason);
        if (r.decision !== 'NoOpinion') return r;
      }
      const error = aggregateError(errors);
      return { decision: 'NoOpinion', reason: reasons.join('\n'), ...(error !== undefined ? { error } : {}) };
    },
  };
}

export function newUnionRuleResolver(...resolvers: RuleResolver[]): RuleResolver {
  return {
    async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      const errors: Error[] = [];
      let incomplete = false;
      for (const r of resolvers) {
        const rules = await r.rulesFor(user, namespace);
        if (rules.incomplete) incomplete = true;
        if (rules.error !== undefined) errors.push(rules.error);
        resourceRules.push(...rules.resourceRules);
        nonResourceRules.push(...rules.nonResourceRules);
      }
      const error = aggregateError(errors);
      return { resourceRules, nonResourceRules, incomplete, ...(error !== undefined ? { error } : {}) };
    },
  };
}
