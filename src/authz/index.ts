// Request authorization (k8s.io/apiserver/pkg/authorization and kube's RBAC authorizer).
export {
  aggregateError, attributesRecord, type Attributes, type AuthorizationResult, type Authorizer, type Decision,
  type NonResourceRuleInfo, type ResourceRuleInfo, type RuleResolver, type RulesResult,
} from './authorizer.ts';
export { isMemberOf, newAlwaysAllowAuthorizer, newAlwaysDenyAuthorizer, newPrivilegedGroups, SYSTEM_PRIVILEGED_GROUP } from './factory.ts';
export { forbiddenMessage, forbiddenStatusError, newForbiddenError } from './forbidden.ts';
export {
  anonymousAllowedWith, AUTHORIZATION_MODE_CHOICES, isSupportedMode, newAuthorizationChain, SUPPORTED_AUTHORIZATION_MODES,
  validateAuthorizationModes, type AuthorizationChain, type AuthorizationMode,
} from './modes.ts';
export { newUnionAuthorizer, newUnionRuleResolver } from './union.ts';
export { BindingIndex, RBACCache, type ListWatcher, type RBACSources } from './rbac/cache.ts';
export {
  bindingAuthorized, compactRules, compactString, confirmNoEscalation, escalationAllowed, FULL_AUTHORITY, goQuoteList,
  roleEscalationAuthorized,
} from './rbac/escalation.ts';
export { ruleAllows, rulesAllow } from './rbac/evaluation-helpers.ts';
export { breakdownRule, covers } from './rbac/policy-comparator.ts';
export { RBACAuthorizer } from './rbac/rbac.ts';
export { appliesToUser, DefaultRuleResolver, serviceAccountMatches } from './rbac/rule.ts';
export { loadRBACSnapshot, staticListers, type ObjectLister, type RBACObjects, type RBACReaders } from './rbac/snapshot.ts';
export { RBAC_GROUP, type BindingObject, type ClusterRoleObject, type PolicyRule, type RBACListers, type RoleObject, type RoleRef, type Subject } from './rbac/types.ts';
export { WebhookAuthorizer, subjectAccessReviewSpec, type SubjectAccessReviewVersion, type WebhookAuthorizerOptions } from './webhook.ts';
export { compileMatchCondition, evalMatchConditions, type SubjectAccessReviewSpec } from './match-conditions.ts';
export {
  decodeAuthorizationConfiguration, loadAndValidateAuthorizationData, loadAuthorizationConfigurationFile, type AuthorizationConfiguration, type AuthorizerConfiguration,
  type LoadedAuthorizationConfiguration, type WebhookConfiguration,
} from './authorization-config.ts';
export { validateAuthorizationConfiguration, KNOWN_AUTHORIZER_TYPES } from './authorization-config-validation.ts';
export { authorizationConfigurationFromFlags, DEFAULT_LEGACY_WEBHOOK, resolveAuthorizers, type LegacyWebhookFlags, type ResolvedAuthorizers } from './config.ts';
