// The admission webhook plugins as the control plane builds them: configurations followed by
// shared informers, namespaces read from the namespace cache, calls through src/webhook's client
// manager (service references resolved through EndpointSlices).
// Counterpart of the webhook plugin initialisation in k8s.io/apiserver/pkg/server/options/admission.go.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Plugin } from '../admission/interfaces.ts';
import {
  clientCaller, evaluateMatchConditions, InformerWebhookSource, mutatingAdmissionWebhook, validatingAdmissionWebhook, type MatchConditionsFn, type WebhookCaller,
  type WebhookType,
} from '../admission/webhook/index.ts';
import type { ListWatcher } from '../client/cache/list-watch.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import { ClientManager } from '../webhook/index.ts';
import { newEndpointServiceResolver } from './endpoint-service-resolver.ts';

export interface WebhookAdmissionDeps {
  readonly mutatingConfigurations: SharedInformer<KubeObject>;
  readonly validatingConfigurations: SharedInformer<KubeObject>;
  readonly caller: WebhookCaller;
  readonly matchConditions?: MatchConditionsFn | undefined;
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
 * one client manager whose service references resolve to ready EndpointSlice endpoints. Undefined
 * when admissionregistration.k8s.io/v1 is not served.
 */
export function webhookAdmissionDeps(stores: ReadonlyMap<string, ListWatcher>, informerFor: (lw: ListWatcher, name: string) => SharedInformer,
  readers: Parameters<typeof newEndpointServiceResolver>[0]): WebhookAdmissionDeps | undefined {
  const mutating = stores.get(MUTATING);
  const validating = stores.get(VALIDATING);
  if (mutating === undefined || validating === undefined) return undefined;
  return {
    mutatingConfigurations: informerFor(mutating, MUTATING),
    validatingConfigurations: informerFor(validating, VALIDATING),
    caller: clientCaller(new ClientManager(newEndpointServiceResolver(readers))),
    matchConditions: evaluateMatchConditions,
  };
}
