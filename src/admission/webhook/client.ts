// The admission webhooks' caller on src/webhook's client manager (one client per address and CA
// bundle, service references resolved by the manager's resolver).
// Counterpart of invocation.Webhook.GetRESTClient(ClientManager) in the dispatchers.
import { clientConfigFromWire, type ClientManager } from '../../webhook/index.ts';
import type { WebhookCaller } from './call.ts';

export function clientCaller(manager: ClientManager): WebhookCaller {
  return {
    post: (webhookName, config, body, opts) => manager.hookClient(clientConfigFromWire(webhookName, config)).post(body, opts),
  };
}
