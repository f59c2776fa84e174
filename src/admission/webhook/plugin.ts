// The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins. Requests on the admission
// configuration kinds are never sent to webhooks. Until the configurations are known (informer
// synced) a request waits, up to kube's 10 seconds, then is refused. With no webhook configured
// the plugins do not handle the request at all: the chain skips them at the cost of one check.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/{generic/webhook.go,mutating/plugin.go,validating/plugin.go}.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import type { WebhookCaller } from './call.ts';
import type { MatchConditionsFn, NamespaceGetter } from './matching.ts';
import { dispatchMutating, MUTATING_PLUGIN_NAME } from './mutating.ts';
import { isExemptAdmissionConfigurationResource } from './rules.ts';
import type { WebhookSource } from './source.ts';
import { dispatchValidating, VALIDATING_PLUGIN_NAME } from './validating.ts';

export interface WebhookPluginOptions {
  readonly source: WebhookSource;
  readonly getNamespace: NamespaceGetter;
  readonly caller: WebhookCaller;
  readonly matchConditions?: MatchConditionsFn | undefined;
  /** How long a request waits for the configurations to be known (kube: 10s). */
  readonly readyTimeoutMs?: number;
}

const READY_POLL_MS = 50;

async function waitForReady(source: WebhookSource, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!source.hasSynced()) {
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
  return true;
}

/** admission.NewForbidden: the resource and the request's (or object's) name. */
function notReady(attrs: Attributes): Error {
  const name = attrs.name !== '' ? attrs.name : attrs.object?.metadata?.name ?? '';
  return newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, name, 'not yet ready to handle request');
}

function webhookPlugin(name: string, opts: WebhookPluginOptions,
  dispatch: typeof dispatchMutating): { name: string; handles(op: Operation): boolean; run(ctx: RequestContext, attrs: Attributes): Promise<void> } {
  const deps = { getNamespace: opts.getNamespace, caller: opts.caller, matchConditions: opts.matchConditions };
  return {
    name,
    // Handles every operation, but nothing to do when synced with no webhooks: the chain's cheap check.
    handles: () => !opts.source.hasSynced() || opts.source.webhooks().length > 0,
    async run(ctx, attrs) {
      if (isExemptAdmissionConfigurationResource(attrs.kind)) return;
      if (!opts.source.hasSynced() && !await waitForReady(opts.source, opts.readyTimeoutMs ?? 10_000)) throw notReady(attrs);
      const hooks = opts.source.webhooks();
      if (hooks.length === 0) return;
      await dispatch(ctx, attrs, hooks, deps);
    },
  };
}

export function mutatingAdmissionWebhook(opts: WebhookPluginOptions): Plugin {
  const p = webhookPlugin(MUTATING_PLUGIN_NAME, opts, dispatchMutating);
  return { name: p.name, handles: p.handles, admit: p.run };
}

export function validatingAdmissionWebhook(opts: WebhookPluginOptions): Plugin {
  const p = webhookPlugin(VALIDATING_PLUGIN_NAME, opts, dispatchValidating);
  return { name: p.name, handles: p.handles, validate: p.run };
}
