import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import type { Webhook, WebhookConfiguration } from '../v1/types.ts';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhook.ts';

const ctx = systemContext();
const hook = (extra: Partial<Webhook> = {}): Webhook => ({
  name: 'check.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'],
  clientConfig: { service: { namespace: 'ns', name: 'svc' } }, ...extra,
});
const cfg = (...webhooks: Webhook[]): WebhookConfiguration => ({ metadata: { name: 'cfg' }, webhooks });

describe('webhook configurations', () => {
  it('applies v1 defaults', () => {
    const c = cfg(hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] }));
    mutatingWebhookConfigurations.defaults(c);
    const w = c.webhooks?.[0];
    assert.deepEqual([w?.failurePolicy, w?.matchPolicy, w?.namespaceSelector, w?.objectSelector, w?.timeoutSeconds, w?.reinvocationPolicy, w?.rules?.[0]?.scope, w?.clientConfig?.service?.port],
      ['Fail', 'Equivalent', {}, {}, 10, 'Never', '*', 443]);
    const v = cfg(hook());
    validatingWebhookConfigurations.defaults(v);
    assert.equal(v.webhooks?.[0]?.reinvocationPolicy, undefined);
  });

  const cases: { name: string; obj: WebhookConfiguration; want: string[] }[] = [
    { name: 'valid', obj: cfg(hook()), want: [] },
    { name: 'name not fully qualified', obj: cfg(hook({ name: 'check' })),
      want: ['webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots'] },
    { name: 'duplicate names', obj: cfg(hook(), hook()), want: ['webhooks[1].name: Duplicate value: "check.example.com"'] },
    { name: 'missing sideEffects and review versions', obj: cfg(hook({ sideEffects: undefined as unknown as string, admissionReviewVersions: [] })),
      want: ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun', 'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1'] },
    { name: 'side effects Some', obj: cfg(hook({ sideEffects: 'Some' })), want: ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"'] },
    { name: 'timeout out of range', obj: cfg(hook({ timeoutSeconds: 31 })), want: ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds'] },
    // kube v1.36.3 answers a service without name with service.namespace: Required value (it swaps the two).
    { name: 'service without name', obj: cfg(hook({ clientConfig: { service: { namespace: 'ns', name: '' } } })),
      want: ['webhooks[0].clientConfig.service.namespace: Required value'] },
    { name: 'both url and service', obj: cfg(hook({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'ns', name: 'svc' } } })),
      want: ['webhooks[0].clientConfig: Required value: exactly one of url or service is required'] },
    { name: 'http url', obj: cfg(hook({ clientConfig: { url: 'http://a.example.com/x' } })),
      want: ['webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]'] },
    { name: 'unknown review version', obj: cfg(hook({ admissionReviewVersions: ['v9'] })),
      want: ['webhooks[0].admissionReviewVersions: Invalid value: [\"v9\"]: must include at least one of v1, v1beta1'] },
    { name: 'bad operation', obj: cfg(hook({ rules: [{ operations: ['MAKE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })),
      want: ['webhooks[0].rules[0].operations[0]: Unsupported value: "MAKE": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validatingWebhookConfigurations.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('sets generation 1 and bumps it when webhooks change', () => {
    const created = cfg(hook());
    mutatingWebhookConfigurations.strategy.prepareForCreate(ctx, created);
    assert.equal(created.metadata.generation, 1);
    const same = cfg(hook());
    mutatingWebhookConfigurations.strategy.prepareForUpdate(ctx, same, created);
    assert.equal(same.metadata.generation, 1);
    const changed = cfg(hook({ timeoutSeconds: 5 }));
    mutatingWebhookConfigurations.strategy.prepareForUpdate(ctx, changed, created);
    assert.equal(changed.metadata.generation, 2);
  });

  it('table counts webhooks', () => {
    assert.deepEqual(validatingWebhookConfigurations.table.map((c) => c.name), ['Name', 'Webhooks', 'Age']);
    assert.equal(validatingWebhookConfigurations.table[1]?.cell(cfg(hook(), hook({ name: 'b.example.com' })), 0), 2);
  });
});
