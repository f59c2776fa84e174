// The authorizer chain from its configuration: the legacy flags become an AuthorizationConfiguration
// (each mode an authorizer; Webhook named "default" with a 30s timeout, failurePolicy NoOpinion
// and the flags' TTLs), then each Webhook entry gets its client from its kubeconfig.
// Counterpart of pkg/kubeapiserver/options/authorization.go (buildAuthorizationConfiguration) and
// pkg/kubeapiserver/authorizer (config.go, reload.go newForConfig).
import type { Program } from '../cel/index.ts';
import { ClientManager, loadWebhookKubeconfig, type Backoff } from '../webhook/index.ts';
import type { AuthorizationConfiguration, AuthorizerConfiguration } from './authorization-config-types.ts';
import { isSupportedMode, type AuthorizationMode } from './modes.ts';
import { WebhookAuthorizer } from './webhook.ts';
import { loadABACPolicyFile, newABACAuthorizer } from './abac/abac.ts';
import type { Authorizer, RuleResolver } from './authorizer.ts';

/** --authorization-webhook-*: the legacy flags of the one webhook of --authorization-mode Webhook. */
export interface LegacyWebhookFlags {
  readonly configFile: string;
  readonly version: string;
  readonly authorizedTTLMs: number;
  readonly unauthorizedTTLMs: number;
}

/** kube's defaults of the legacy webhook flags. */
export const DEFAULT_LEGACY_WEBHOOK: LegacyWebhookFlags = { configFile: '', version: 'v1beta1', authorizedTTLMs: 300_000, unauthorizedTTLMs: 30_000 };

/** The legacy webhook's timeout: the kubeconfig client's (LoadKubeconfig's defaultRequestTimeout). */
const LEGACY_TIMEOUT_MS = 30_000;

/** buildAuthorizationConfiguration: the modes in order, as authorizers named after them. */
export function authorizationConfigurationFromFlags(modes: readonly string[], webhook: LegacyWebhookFlags): AuthorizationConfiguration {
  return {
    authorizers: modes.map((m): AuthorizerConfiguration => (m !== 'Webhook' ? { type: m, name: m.toLowerCase() } : {
      type: 'Webhook', name: 'default',
      webhook: {
        authorizedTTLMs: webhook.authorizedTTLMs, cacheAuthorizedRequests: webhook.authorizedTTLMs !== 0,
        unauthorizedTTLMs: webhook.unauthorizedTTLMs, cacheUnauthorizedRequests: webhook.unauthorizedTTLMs !== 0,
        timeoutMs: LEGACY_TIMEOUT_MS, failurePolicy: 'NoOpinion', subjectAccessReviewVersion: webhook.version,
        matchConditionSubjectAccessReviewVersion: '', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: webhook.configFile },
        matchConditions: [],
      },
    })),
  };
}

export interface ResolvedAuthorizers {
  /** The authorizer types in order (Webhook once per webhook). */
  readonly modes: readonly AuthorizationMode[];
  /** The webhooks, in the order of their Webhook entries. */
  readonly webhooks: readonly WebhookAuthorizer[];
  /** The ABAC mode's policies, when ABAC is a mode. */
  readonly abac?: Authorizer & RuleResolver;
}

export interface ResolveOptions {
  /** The compiled matchConditions by authorizer index (from loadAuthorizationConfigurationFile). */
  readonly matchConditions?: ReadonlyMap<number, readonly Program[]>;
  /** Tests shorten the retry pauses. */
  readonly backoff?: Backoff;
  /**
   * --authorization-policy-file ('' when not given), read when ABAC is a mode; undefined on a
   * reload, which keeps the start-up's ABAC policies as kube does.
   */
  readonly policyFile?: string;
}

/**
 * Builds the webhooks of `config` (reading their kubeconfigs). Rejects with kube's start-up error
 * `invalid authorization config: <why>` (an unreadable kubeconfig, an unsupported
 * SubjectAccessReview version of the legacy flags, InClusterConfig outside a cluster).
 */
export async function resolveAuthorizers(config: AuthorizationConfiguration, opts: ResolveOptions = {}): Promise<ResolvedAuthorizers> {
  const modes: AuthorizationMode[] = [];
  const webhooks: WebhookAuthorizer[] = [];
  const clients = new ClientManager();
  const fail = (why: string): Error => new Error(`invalid authorization config: ${why}`);
  let abac: (Authorizer & RuleResolver) | undefined;
  for (const [i, a] of config.authorizers.entries()) {
    if (!isSupportedMode(a.type)) throw fail(`authorizer type ${a.type} is not supported by kapi`);
    modes.push(a.type);
    if (a.type === 'ABAC' && opts.policyFile !== undefined) {
      try {
        abac = newABACAuthorizer(loadABACPolicyFile(opts.policyFile ?? ''));
      } catch (err) {
        throw fail((err as Error).message);
      }
    }
    const w = a.webhook;
    if (a.type !== 'Webhook' || w === undefined) continue;
    if (w.subjectAccessReviewVersion !== 'v1' && w.subjectAccessReviewVersion !== 'v1beta1') {
      throw fail(`unsupported webhook authorizer version "${w.subjectAccessReviewVersion}", supported versions are "v1", "v1beta1"`);
    }
    if (w.connectionInfo.type !== 'KubeConfigFile') {
      // kube reads the pod's service account here; kapi never runs in a pod.
      throw fail('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
    }
    let cc;
    try {
      cc = await loadWebhookKubeconfig(w.connectionInfo.kubeConfigFile ?? '', a.name);
    } catch (err) {
      throw fail((err as Error).message);
    }
    webhooks.push(new WebhookAuthorizer({
      client: clients.hookClient(cc), version: w.subjectAccessReviewVersion,
      authorizedTTLMs: w.cacheAuthorizedRequests ? w.authorizedTTLMs : 0,
      unauthorizedTTLMs: w.cacheUnauthorizedRequests ? w.unauthorizedTTLMs : 0,
      timeoutMs: w.timeoutMs, decisionOnError: w.failurePolicy === 'Deny' ? 'Deny' : 'NoOpinion',
      ...(opts.matchConditions?.get(i) !== undefined ? { matchConditions: opts.matchConditions.get(i) ?? [] } : {}),
      ...(opts.backoff !== undefined ? { backoff: opts.backoff } : {}),
    }));
  }
  return { modes, webhooks, ...(abac !== undefined ? { abac } : {}) };
}
