// --authorization-mode (pkg/kubeapiserver/authorizer/modes, options/authorization.go, reload.go):
// the ordered authorizers of the server. kube puts a system:masters authorizer before them.
import type { Authorizer, RuleResolver } from './authorizer.ts';
import { newAlwaysAllowAuthorizer, newAlwaysDenyAuthorizer, newPrivilegedGroups, SYSTEM_PRIVILEGED_GROUP } from './factory.ts';
import type { RBACAuthorizer } from './rbac/rbac.ts';
import { newUnionAuthorizer, newUnionRuleResolver } from './union.ts';
import { goQuoteList } from './rbac/escalation.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';

/** Every mode kube-apiserver knows, in its order. */
export const AUTHORIZATION_MODE_CHOICES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
/** The modes kapi implements: all of kube's. */
export const SUPPORTED_AUTHORIZATION_MODES = AUTHORIZATION_MODE_CHOICES;
export type AuthorizationMode = typeof SUPPORTED_AUTHORIZATION_MODES[number];

export const isSupportedMode = (m: string): m is AuthorizationMode => (SUPPORTED_AUTHORIZATION_MODES as readonly string[]).includes(m);

/**
 * BuiltInAuthorizationOptions.Validate, with kube's messages and order. `webhookConfigFile`:
 * --authorization-webhook-config-file, `policyFile`: --authorization-policy-file ('' when not given).
 */
export function validateAuthorizationModes(modes: readonly string[], webhookConfigFile = '', policyFile = ''): string[] {
  const errs: string[] = [];
  if (modes.length === 0) errs.push('at least one authorization-mode must be passed');
  for (const m of modes) {
    if (!(AUTHORIZATION_MODE_CHOICES as readonly string[]).includes(m)) {
      errs.push(`authorization-mode ${goQuote(m)} is not a valid mode`);
    }
    if (m === 'ABAC' && policyFile === '') errs.push("authorization-mode ABAC's authorization policy file not passed");
    if (m === 'Webhook' && webhookConfigFile === '') errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (policyFile !== '' && !modes.includes('ABAC')) errs.push('cannot specify --authorization-policy-file without mode ABAC');
  if (webhookConfigFile !== '' && !modes.includes('Webhook')) errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(modes).size !== modes.length) errs.push(`authorization-mode ${goQuoteList(modes)} has mode specified more than once`);
  return errs;
}

export interface AuthorizationChain {
  readonly authorizer: Authorizer;
  readonly ruleResolver: RuleResolver;
}

/** The authorizers a chain's stateful modes use; each is required when its mode is listed. */
export interface ModeAuthorizers {
  readonly rbac?: RBACAuthorizer | undefined;
  readonly node?: (Authorizer & RuleResolver) | undefined;
  readonly abac?: (Authorizer & RuleResolver) | undefined;
}

/**
 * The system:masters authorizer, then each mode in order; the rule resolvers of the modes (not
 * of system:masters) answer SelfSubjectRulesReview. Each Webhook mode takes the next of
 * `webhooks` (--authorization-config may name several).
 */
export function newAuthorizationChain(
  modes: readonly AuthorizationMode[], stateful: ModeAuthorizers, webhooks: readonly (Authorizer & RuleResolver)[] = [],
): AuthorizationChain {
  const authorizers: Authorizer[] = [newPrivilegedGroups(SYSTEM_PRIVILEGED_GROUP)];
  const resolvers: RuleResolver[] = [];
  let nextWebhook = 0;
  const add = (a: (Authorizer & RuleResolver) | undefined, mode: string): void => {
    if (a === undefined) throw new Error(`authorizer type ${mode} is not allowed if it was not enabled at initial server startup`);
    authorizers.push(a);
    resolvers.push(a);
  };
  for (const m of modes) {
    switch (m) {
      case 'Webhook': add(webhooks[nextWebhook++], m); break;
      case 'AlwaysAllow': add(newAlwaysAllowAuthorizer(), m); break;
      case 'AlwaysDeny': add(newAlwaysDenyAuthorizer(), m); break;
      case 'RBAC': add(stateful.rbac, m); break;
      case 'Node': add(stateful.node, m); break;
      case 'ABAC': add(stateful.abac, m); break;
    }
  }
  return { authorizer: newUnionAuthorizer(...authorizers), ruleResolver: newUnionRuleResolver(...resolvers) };
}

/** kube's rule: AlwaysAllow anywhere in the chain turns anonymous authentication off. */
export const anonymousAllowedWith = (modes: readonly string[], anonymousAuth: boolean): boolean =>
  anonymousAuth && !modes.includes('AlwaysAllow');

export interface ReloadableAuthorizationChain extends AuthorizationChain {
  /**
   * Replaces the chain with `modes` and `webhooks` (--authorization-config reloaded); the RBAC,
   * Node and ABAC authorizers of the first chain are kept. Throws kube's error for a mode that was not
   * enabled at start-up; the chain in use then stays.
   */
  replace(modes: readonly AuthorizationMode[], webhooks: readonly (Authorizer & RuleResolver)[]): void;
}

/** A chain whose authorizers a reload can swap; requests in flight finish with the chain they started with. */
export function newReloadableAuthorizationChain(
  modes: readonly AuthorizationMode[], stateful: ModeAuthorizers, webhooks: readonly (Authorizer & RuleResolver)[] = [],
): ReloadableAuthorizationChain {
  let current = newAuthorizationChain(modes, stateful, webhooks);
  return {
    authorizer: { authorize: (a) => current.authorizer.authorize(a) },
    ruleResolver: { rulesFor: (user, namespace) => current.ruleResolver.rulesFor(user, namespace) },
    replace(nextModes, nextWebhooks) {
      current = newAuthorizationChain(nextModes, stateful, nextWebhooks);
    },
  };
}
