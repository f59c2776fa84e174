import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { crdFromV1beta1, crdToV1beta1 } from './storage-conversion.ts';

const names = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' };
const schema = { openAPIV3Schema: { type: 'object' } };
const status = { storedVersions: ['v1'], acceptedNames: names, conditions: [] };

const crd = (apiVersion: string, spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion, kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' }, spec, status } as unknown as KubeObject);

describe('CRD storage conversion (v1 ↔ v1beta1)', () => {
  const cases: { name: string; v1: Record<string, unknown>; v1beta1: Record<string, unknown> }[] = [
    {
      // What kube-apiserver v1.36.3 wrote to etcd for this CRD (asked of the oracle).
      name: 'per-version schema, subresources and printer columns',
      v1: { group: 'example.com', names, scope: 'Namespaced', conversion: { strategy: 'None' },
        versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'S', type: 'string', jsonPath: '.spec.s' }] },
        { name: 'v2', served: true, storage: false, schema }] },
      v1beta1: { group: 'example.com', version: 'v1', names, scope: 'Namespaced', conversion: { strategy: 'None' }, preserveUnknownFields: false,
        versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'S', type: 'string', JSONPath: '.spec.s' }] },
        { name: 'v2', served: true, storage: false, schema }] },
    },
    {
      name: 'webhook conversion',
      v1: { group: 'example.com', names, scope: 'Cluster', versions: [{ name: 'v1', served: true, storage: true, schema }],
        conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://x.example.com/convert' }, conversionReviewVersions: ['v1'] } } },
      v1beta1: { group: 'example.com', version: 'v1', names, scope: 'Cluster', versions: [{ name: 'v1', served: true, storage: true, schema }],
        conversion: { strategy: 'Webhook', webhookClientConfig: { url: 'https://x.example.com/convert' }, conversionReviewVersions: ['v1'] },
        preserveUnknownFields: false },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(crdToV1beta1(crd('apiextensions.k8s.io/v1', c.v1)), crd('apiextensions.k8s.io/v1beta1', c.v1beta1));
      assert.deepEqual(crdFromV1beta1(crd('apiextensions.k8s.io/v1beta1', c.v1beta1)), crd('apiextensions.k8s.io/v1', c.v1));
    });
  }

  it('applies version-wide fields an old v1beta1 CRD has to every version', () => {
    const got = crdFromV1beta1(crd('apiextensions.k8s.io/v1beta1', {
      group: 'example.com', version: 'v1', names, scope: 'Namespaced', validation: schema, subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'S', type: 'string', JSONPath: '.spec.s' }], preserveUnknownFields: true,
    })) as unknown as { spec: Record<string, unknown> };
    assert.deepEqual(got.spec, {
      group: 'example.com', names, scope: 'Namespaced', preserveUnknownFields: true,
      versions: [{ name: 'v1', served: true, storage: true, schema, subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'S', type: 'string', jsonPath: '.spec.s' }] }],
    });
  });
});
