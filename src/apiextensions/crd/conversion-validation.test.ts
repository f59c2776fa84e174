import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import type { CustomResourceConversion, CustomResourceDefinition } from '../v1/types.ts';
import { defaultCRD } from './defaults.ts';
import { validateCRD, validateCRDUpdate } from './validation.ts';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n').toString('base64');

function crd(conversion: unknown, extra: Partial<CustomResourceDefinition['spec']> = {}): CustomResourceDefinition {
  const c: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.conv.example.com' },
    spec: {
      group: 'conv.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      conversion: conversion as CustomResourceConversion, ...extra,
    },
  };
  defaultCRD(c);
  c.status = { storedVersions: ['v1'] };
  return c;
}

const webhook = (clientConfig: unknown, versions: unknown = ['v1']): unknown => ({ strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions: versions } });
const conversionErrors = (c: CustomResourceDefinition, old?: CustomResourceDefinition): string[] =>
  (old === undefined ? validateCRD(c) : validateCRDUpdate(c, old)).map(formatFieldError)
    .filter((m) => m.startsWith('spec.conversion') || m.startsWith('spec.preserveUnknownFields'));

// The messages kube-apiserver v1.36.3 answered for these CRDs (a dry-run create against the oracle).
describe('CRD conversion validation', () => {
  const cases: { name: string; conversion: unknown; extra?: Partial<CustomResourceDefinition['spec']>; want: string[] }[] = [
    { name: 'a webhook CRD', conversion: webhook({ url: 'https://127.0.0.1:8443/convert', caBundle: CA }), want: [] },
    { name: 'a service webhook with the default port', conversion: webhook({ service: { namespace: 'ns', name: 'hook', path: '/convert' } }), want: [] },
    { name: 'Webhook without webhook', conversion: { strategy: 'Webhook' }, want: [
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value'] },
    { name: 'Webhook without clientConfig', conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } }, want: [
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook'] },
    { name: 'an empty clientConfig and no review versions', conversion: { strategy: 'Webhook', webhook: { clientConfig: {} } }, want: [
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
      'spec.conversion.conversionReviewVersions: Required value'] },
    { name: 'both url and service', conversion: webhook({ url: 'https://a', service: { name: 'a', namespace: 'b' } }), want: [
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required'] },
    { name: 'an http url', conversion: webhook({ url: 'http://x/y' }), want: [
      'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]'] },
    { name: 'user, query and fragment in the url', conversion: webhook({ url: 'https://u:p@h/p?q=1#f' }), want: [
      'spec.conversion.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL'] },
    { name: 'a bad service', conversion: webhook({ service: { name: '', namespace: '', port: 0, path: 'a//B' } }), want: [
      'spec.conversion.webhookClientConfig.service.name: Required value',
      'spec.conversion.webhookClientConfig.service.namespace: Required value',
      'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": must start with a \'/\'',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')'] },
    // kube swaps name and namespace when it validates the service (as for admission webhooks).
    { name: 'a service without name', conversion: webhook({ service: { name: '', namespace: 'n', path: '/convert' } }), want: [
      'spec.conversion.webhookClientConfig.service.namespace: Required value'] },
    { name: 'a service without namespace', conversion: webhook({ service: { name: 'hook', namespace: '', path: '/convert' } }), want: [
      'spec.conversion.webhookClientConfig.service.name: Required value'] },
    { name: 'duplicate and malformed review versions', conversion: webhook({ url: 'https://a' }, ['v3', 'v1', 'v1', 'V2']), want: [
      'spec.conversion.conversionReviewVersions[2]: Invalid value: "v1": duplicate version',
      'spec.conversion.conversionReviewVersions[3]: Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')'] },
    { name: 'no review version kube speaks', conversion: webhook({ url: 'https://a' }, ['v3']), want: [
      'spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1'] },
    { name: 'a bad CA bundle on create (not checked)', conversion: webhook({ url: 'https://a', caBundle: Buffer.from('junk').toString('base64') }), want: [] },
    { name: 'None with a webhook', conversion: { strategy: 'None', webhook: { clientConfig: { url: 'https://a' }, conversionReviewVersions: ['v1'] } }, want: [
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook'] },
    { name: 'Webhook with preserveUnknownFields', conversion: webhook({ url: 'https://a' }), extra: { preserveUnknownFields: true }, want: [
      'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'] },
    { name: 'an empty strategy', conversion: { strategy: '' }, want: ['spec.conversion.strategy: Required value'] },
    { name: 'an unknown strategy', conversion: { strategy: 'Foo' }, want: ['spec.conversion.strategy: Unsupported value: "Foo": supported values: "None", "Webhook"'] },
  ];
  for (const tc of cases) {
    it(tc.name, () => assert.deepEqual(conversionErrors(crd(tc.conversion, tc.extra)), tc.want));
  }

  it('defaults the service port to 443', () => {
    const c = crd(webhook({ service: { namespace: 'ns', name: 'hook' } }));
    assert.equal(c.spec.conversion?.webhook?.clientConfig?.service?.port, 443);
  });

  const established = (c: CustomResourceDefinition): CustomResourceDefinition => {
    c.status = { ...c.status, conditions: [{ type: 'Established', status: 'True' }] };
    return c;
  };
  const badBundle = Buffer.from('junk').toString('base64');
  const updates: { name: string; old: CustomResourceDefinition; want: string[] }[] = [
    { name: 'a bad CA bundle on an established CRD with a good one', old: established(crd(webhook({ url: 'https://a' }))),
      want: [`spec.conversion.webhookClientConfig.caBundle: Invalid value: "${badBundle}": unable to load root certificates: unable to parse bytes as PEM block`] },
    { name: 'a bad CA bundle on a CRD not established yet', old: crd(webhook({ url: 'https://a' })), want: [] },
    { name: 'a bad CA bundle kept from a bad one', old: established(crd(webhook({ url: 'https://a', caBundle: badBundle }))), want: [] },
  ];
  for (const tc of updates) {
    it(`update: ${tc.name}`, () => assert.deepEqual(conversionErrors(crd(webhook({ url: 'https://a', caBundle: badBundle })), tc.old), tc.want));
  }
  it('update: review versions kube does not speak are kept when they already were', () => {
    const old = crd(webhook({ url: 'https://a' }, ['v3']));
    assert.deepEqual(conversionErrors(crd(webhook({ url: 'https://a' }, ['v3', 'v4'])), old), []);
    assert.deepEqual(conversionErrors(crd(webhook({ url: 'https://a' }, ['v3'])), crd(webhook({ url: 'https://a' }))),
      ['spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1']);
  });
});
