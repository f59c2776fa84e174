// The admission webhook plugins as the control plane builds them: configurations followed by
// shared informers, namespaces read from the namespace cache, calls through src/webhook's client
// manager (service references resolved through EndpointSlices).
// Counterpart of the webhook plugin initialisation in k8s.io/apiserver/pkg/server/options/admission.go.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Plugin } from '../admission/interfaces.ts';
import {
  clientCaller, InformerWebhookSource, matchConditionsEvaluator, mutatingAdmissionWebhook, validatingAdmissionWebhook, type MatchConditionsFn, type WebhookCaller,
  type WebhookType,
} from '../admission/webhook/index.ts';
import type { ListWatcher } from '../client/cache/list-watch.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import type { ClientManager } from '../webhook/index.ts';
import type { Authorizer } from '../authz/authorizer.ts';
import type { CelAuthorizer } from '../cel/index.ts';

export interface WebhookAdmissionDeps {
  readonly mutatingConfigurations: SharedInformer<KubeObject>;
  readonly validatingConfigurations: SharedInformer<KubeObject>;
  readonly caller: WebhookCaller;
  readonly matchConditions?: MatchConditionsFn | undefined;
}

/** The CEL `authorizer` over the server's authorizer chain (kube's authorizer.Authorizer). */
export function celAuthorizer(authz: Authorizer): CelAuthorizer {
  return {
    async authorize(a) {
      const r = await authz.authorize({
        user: { name: a.user.name, groups: a.user.groups ?? [], ...(a.user.uid !== undefined ? { uid: a.user.uid } : {}),
          ...(a.user.extra !== undefined ? { extra: a.user.extra } : {}) },
        verb: a.verb, resourceRequest: a.resourceRequest, namespace: a.namespace ?? '', apiGroup: a.apiGroup ?? '',
        apiVersion: a.apiVersion ?? '', resource: a.resource ?? '', subresource: a.subresource ?? '', name: a.name ?? '', path: a.path ?? '',
      });
      const decision = r.decision === 'Allow' ? 'allow' : r.decision === 'Deny' ? 'deny' : 'noOpinion';
      return { decision, reason: r.reason, ...(r.error !== undefined ? { error: r.error.message } : {}) };
    },
  };
}

/** A plugin that never handles a request, for a chain built without webhook support (tests). */
const inert = (name: string): Plugin => ({ name, handles: () => false });

export function webhookAdmissionPlugin(type: WebhookType, deps: WebhookAdmissionDeps | undefined,
  getNamespace: (name: string) => Promise<KubeObject | undefined>): Plugin {
  const name = `${type}AdmissionWebhook`;
  if (deps === undefined) return inert(name);
  const informer = type === 'Mutating' ? deps.mutatingConfigurations : deps.validatingConfigurations;
  const opts = { source: new InformerWebhookSource(type, informer), getNamespace, caller: deps.caller, matchConditions: deps.matchConditions };
  return type === 'Mutating' ? mutatingAdmissionWebhook(opts) : validatingAdmissionWebhook(opts);
}

const MUTATING = 'mutatingwebhookconfigurations.admissionregistration.k8s.io';
const VALIDATING = 'validatingwebhookconfigurations.admissionregistration.k8s.io';

/**
 * The webhook plugins' dependencies in a server: informers of both configuration resources, and
 * the server's webhook client manager (service references resolve to ready EndpointSlice endpoints). Undefined
 * when admissionregistration.k8s.io/v1 is not served.
 */
export function webhookAdmissionDeps(stores: ReadonlyMap<string, ListWatcher>, informerFor: (lw: ListWatcher, name: string) => SharedInformer,
  clients: ClientManager, authz: Authorizer): WebhookAdmissionDeps | undefined {
  const mutating = stores.get(MUTATING);
  const validating = stores.get(VALIDATING);
  if (mutating === undefined || validating === undefined) return undefined;
  return {
    mutatingConfigurations: informerFor(mutating, MUTATING),
    validatingConfigurations: informerFor(validating, VALIDATING),
    caller: clientCaller(clients),
    matchConditions: matchConditionsEvaluator(celAuthorizer(authz)),
  };
}
