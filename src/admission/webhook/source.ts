// The webhook configurations of one type, followed through the shared informer runtime: a
// change is seen as soon as the informer's watch delivers it. The sorted accessors are rebuilt
// on the first request after a change, so a request with nothing configured costs one check.
// Counterpart of k8s.io/apiserver/pkg/admission/configuration/{mutating,validating}_webhook_manager.go.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { SharedInformer } from '../../client/cache/shared-informer.ts';
import { webhookAccessors, type WebhookAccessor, type WebhookType } from './accessor.ts';
import type { WebhookConfiguration } from './types.ts';

export interface WebhookSource {
  /** The webhooks in calling order (configurations by name, then their order). */
  webhooks(): readonly WebhookAccessor[];
  hasSynced(): boolean;
}

export class InformerWebhookSource implements WebhookSource {
  private hooks: readonly WebhookAccessor[] = [];
  private dirty = true;

  constructor(private readonly type: WebhookType, private readonly informer: SharedInformer<KubeObject>) {
    const touch = (): void => { this.dirty = true; };
    informer.addEventHandler({ onAdd: touch, onUpdate: touch, onDelete: touch });
  }

  hasSynced(): boolean { return this.informer.hasSynced(); }

  webhooks(): readonly WebhookAccessor[] {
    if (this.dirty) {
      this.dirty = false;
      this.hooks = webhookAccessors(this.type, this.informer.list() as WebhookConfiguration[]);
    }
    return this.hooks;
  }
}

/** A fixed set of configurations (tests). */
export function staticWebhookSource(type: WebhookType, configs: readonly WebhookConfiguration[]): WebhookSource {
  const hooks = webhookAccessors(type, configs);
  return { webhooks: () => hooks, hasSynced: () => true };
}
