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
/** The modes kapi implements. */
export const SUPPORTED_AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = typeof SUPPORTED_AUTHORIZATION_MODES[number];

export const isSupportedMode = (m: string): m is AuthorizationMode => (SUPPORTED_AUTHORIZATION_MODES as readonly string[]).includes(m);

/**
 * BuiltInAuthorizationOptions.Validate, with kube's messages and order; the mode kube has and
 * kapi does not (ABAC) is refused by name rather than faked. `webhookConfigFile`:
 * --authorization-webhook-config-file ('' when not given).
 */
export function validateAuthorizationModes(modes: readonly string[], webhookConfigFile = ''): string[] {
  const errs: string[] = [];
  if (modes.length === 0) errs.push('at least one authorization-mode must be passed');
  for (const m of modes) {
    if (!(AUTHORIZATION_MODE_CHOICES as readonly string[]).includes(m)) {
      errs.push(`authorization-mode ${goQuote(m)} is not a valid mode`);
    } else if (!isSupportedMode(m)) {
      errs.push(`authorization-mode ${goQuote(m)} is not supported by kapi (supported: ${SUPPORTED_AUTHORIZATION_MODES.join(', ')})`);
    }
    if (m === 'Webhook' && webhookConfigFile === '') errs.push("authorization-mode Webhook's authorization config file not passed");
  }
  if (webhookConfigFile !== '' && !modes.includes('Webhook')) errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(modes).size !== modes.length) errs.push(`authorization-mode ${goQuoteList(modes)} has mode specified more than once`);
  return errs;
}

export interface AuthorizationChain {
  readonly authorizer: Authorizer;
  readonly ruleResolver: RuleResolver;
}

/**
 * The system:masters authorizer, then each mode in order; the rule resolvers of the modes (not
 * of system:masters) answer SelfSubjectRulesReview. `rbac` and `node` are required when
 * RBAC and Node are modes; each Webhook mode takes the next of `webhooks` (--authorization-config
 * may name several).
 */
export function newAuthorizationChain(
  modes: readonly AuthorizationMode[], rbac?: RBACAuthorizer, node?: Authorizer & RuleResolver,
  webhooks: readonly (Authorizer & RuleResolver)[] = [],
): AuthorizationChain {
  const authorizers: Authorizer[] = [newPrivilegedGroups(SYSTEM_PRIVILEGED_GROUP)];
  const resolvers: RuleResolver[] = [];
  let nextWebhook = 0;
  for (const m of modes) {
    switch (m) {
      case 'Webhook': {
        const w = webhooks[nextWebhook++];
        if (w === undefined) throw new Error('authorizer type Webhook is not allowed if it was not enabled at initial server startup');
        authorizers.push(w); resolvers.push(w); break;
      }
      case 'AlwaysAllow': { const a = newAlwaysAllowAuthorizer(); authorizers.push(a); resolvers.push(a); break; }
      case 'AlwaysDeny': { const a = newAlwaysDenyAuthorizer(); authorizers.push(a); resolvers.push(a); break; }
      case 'RBAC': {
        if (rbac === undefined) throw new Error('authorizer type RBAC is not allowed if it was not enabled at initial server startup');
        authorizers.push(rbac); resolvers.push(rbac); break;
      }
      case 'Node': {
        if (node === undefined) throw new Error('authorizer type Node is not allowed if it was not enabled at initial server startup');
        authorizers.push(node); resolvers.push(node); break;
      }
    }
  }
  return { authorizer: newUnionAuthorizer(...authorizers), ruleResolver: newUnionRuleResolver(...resolvers) };
}

/** kube's rule: AlwaysAllow anywhere in the chain turns anonymous authentication off. */
export const anonymousAllowedWith = (modes: readonly string[], anonymousAuth: boolean): boolean =>
  anonymousAuth && !modes.includes('AlwaysAllow');

export interface ReloadableAuthorizationChain extends AuthorizationChain {
  /**
   * Replaces the chain with `modes` and `webhooks` (--authorization-config reloaded); the RBAC and
   * Node authorizers of the first chain are kept. Throws kube's error for a mode that was not
   * enabled at start-up; the chain in use then stays.
   */
  replace(modes: readonly AuthorizationMode[], webhooks: readonly (Authorizer & RuleResolver)[]): void;
}

/** A chain whose authorizers a reload can swap; requests in flight finish with the chain they started with. */
export function newReloadableAuthorizationChain(
  modes: readonly AuthorizationMode[], rbac?: RBACAuthorizer, node?: Authorizer & RuleResolver,
  webhooks: readonly (Authorizer & RuleResolver)[] = [],
): ReloadableAuthorizationChain {
  let current = newAuthorizationChain(modes, rbac, node, webhooks);
  return {
    authorizer: { authorize: (a) => current.authorizer.authorize(a) },
    ruleResolver: { rulesFor: (user, namespace) => current.ruleResolver.rulesFor(user, namespace) },
    replace(nextModes, nextWebhooks) {
      current = newAuthorizationChain(nextModes, rbac, node, nextWebhooks);
    },
  };
}
