// The built-in authorizers (k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go):
// AlwaysAllow, AlwaysDeny, and the privileged-group authorizer kube puts first in every chain.
import type { UserInfo } from '../apimachinery/request/context.ts';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from './authorizer.ts';

/** The group whose members every chain allows everything (the loopback client and admins). */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };

const ALLOW_ALL_RULES: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

/** --authorization-mode=AlwaysAllow: allows every request, and says the user holds `*` on everything. */
export function newAlwaysAllowAuthorizer(): Authorizer & RuleResolver {
  return {
    authorize: () => Promise.resolve(ALLOW),
    rulesFor: () => Promise.resolve(ALLOW_ALL_RULES),
  };
}

/** --authorization-mode=AlwaysDeny: no opinion, with the reason kube gives, so every request not allowed before it is forbidden. */
export function newAlwaysDenyAuthorizer(): Authorizer & RuleResolver {
  const result: AuthorizationResult = { decision: 'NoOpinion', reason: 'Everything is forbidden.' };
  return {
    authorize: () => Promise.resolve(result),
    rulesFor: () => Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete: false }),
  };
}

/** Allows members of any of `groups`; no opinion about anyone else. */
export function newPrivilegedGroups(...groups: string[]): Authorizer {
  return {
    authorize(a: Attributes): Promise<AuthorizationResult> {
      if (a.user === undefined) {
        return Promise.resolve({ decision: 'NoOpinion', reason: 'Error', error: new Error('no user on request.') });
      }
      return Promise.resolve(isMemberOf(a.user, groups) ? ALLOW : { decision: 'NoOpinion', reason: '' });
    },
  };
}

export const isMemberOf = (user: UserInfo, groups: readonly string[]): boolean => user.groups.some((g) => groups.includes(g));
