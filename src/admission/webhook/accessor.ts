// One webhook of a configuration, with what matching needs made once per configuration change:
// parsed selectors, its unique id (for reinvocation) and its configuration's name.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/accessors.go.
import { labelSelectorAsSelector } from '../../apimachinery/labels/label-selector.ts';
import type { Selector } from '../../apimachinery/labels/selector.ts';
import type { WebhookConfiguration, WebhookSpec } from './types.ts';

export type WebhookType = 'Validating' | 'Mutating';

export interface WebhookAccessor {
  /** Unique among the webhooks of one type: configuration name, webhook name and position. */
  readonly uid: string;
  readonly type: WebhookType;
  readonly configurationName: string;
  readonly name: string;
  readonly spec: WebhookSpec;
  /** The parsed selectors, or the parse error (kube answers it with a 500 for a request the rules match). */
  readonly namespaceSelector: Selector | Error;
  readonly objectSelector: Selector | Error;
}

function parse(sel: WebhookSpec['namespaceSelector']): Selector | Error {
  try {
    // An absent selector is defaulted to {} (everything) by the v1 defaults.
    return labelSelectorAsSelector(sel ?? {});
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * The webhooks of a set of configurations in kube's calling order: configurations sorted by name,
 * each one's webhooks in their order (mutating/plugin.go and validating/plugin.go sort the same way).
 */
export function webhookAccessors(type: WebhookType, configs: readonly WebhookConfiguration[]): WebhookAccessor[] {
  const sorted = [...configs].sort((a, b) => {
    const x = a.metadata.name ?? '';
    const y = b.metadata.name ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const out: WebhookAccessor[] = [];
  for (const c of sorted) {
    const configurationName = c.metadata.name ?? '';
    (c.webhooks ?? []).forEach((spec, i) => {
      const name = spec.name ?? '';
      out.push({
        uid: `${configurationName}/${name}/${i}`, type, configurationName, name, spec,
        namespaceSelector: parse(spec.namespaceSelector), objectSelector: parse(spec.objectSelector),
      });
    });
  }
  return out;
}
