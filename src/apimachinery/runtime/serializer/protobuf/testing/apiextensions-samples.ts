// Filled apiextensions.k8s.io/v1 CustomResourceDefinition and apiregistration.k8s.io/v1 APIService
// objects in the JSON form kube prints them (every non-omitempty field present), for protobuf tests.
// No Go counterpart: test fixtures.

/** A CRD using every JSONSchemaProps shape: both items forms, both additionalProperties forms, dependencies, JSON values. */
export function richCRD(): Record<string, unknown> {
  const spec = {
    type: 'object',
    description: 'a widget',
    required: ['spec'],
    'x-kubernetes-preserve-unknown-fields': false,
    properties: {
      spec: {
        type: 'object',
        default: { replicas: 1, tags: ['a'], nested: { on: true, off: null } },
        example: 'an example string',
        properties: {
          replicas: { type: 'integer', format: 'int32', minimum: 0, maximum: 100.5, exclusiveMaximum: true, multipleOf: 1, default: 1 },
          name: { type: 'string', pattern: '^[a-z]+$', maxLength: 63, minLength: 1, enum: ['a', 'b', null], nullable: true },
          list: {
            type: 'array', items: { type: 'string' }, maxItems: 5, minItems: 1, uniqueItems: true,
            'x-kubernetes-list-type': 'set',
          },
          tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['port', 'protocol'],
            items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular', maxProperties: 10, minProperties: 0 },
          open: { type: 'object', additionalProperties: true },
          closed: { type: 'object', additionalProperties: false },
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          choice: { oneOf: [{ required: ['a'] }, { required: ['b'] }], not: { required: ['c'] }, allOf: [{ required: ['d'] }] },
        },
        dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
        patternProperties: { '^x-': { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: 'self.replicas <= 100', message: 'too many', reason: 'FieldValueInvalid', fieldPath: '.replicas', optionalOldSelf: true },
          { rule: 'self.name != ""', messageExpression: '"bad name " + self.name' },
        ],
      },
    },
    externalDocs: { description: 'docs', url: 'https://example.com' },
    $schema: 'http://json-schema.org/draft-04/schema#',
    id: 'widget',
    title: 'Widget',
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: 'widgets.example.com',
      uid: '0b5c2f6e-1111-2222-3333-444455556666',
      resourceVersion: '42',
      generation: 2,
      creationTimestamp: '2026-01-02T03:04:05Z',
      labels: { app: 'widget' },
    },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', shortNames: ['wg'], kind: 'Widget', listKind: 'WidgetList', categories: ['all'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: spec },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', format: 'int32', description: 'count', priority: 1, jsonPath: '.spec.replicas' }],
          selectableFields: [{ jsonPath: '.spec.name' }],
        },
        { name: 'v1beta1', served: true, storage: false, deprecated: true, deprecationWarning: 'use v1', schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { service: { namespace: 'ns', name: 'conv', path: '/convert', port: 8443 }, caBundle: 'Y2EtYnVuZGxl' },
          conversionReviewVersions: ['v1', 'v1beta1'],
        },
      },
    },
    status: {
      conditions: [{ type: 'Established', status: 'True', lastTransitionTime: '2026-01-02T03:04:06Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }],
      acceptedNames: { plural: 'widgets', singular: 'widget', shortNames: ['wg'], kind: 'Widget', listKind: 'WidgetList', categories: ['all'] },
      storedVersions: ['v1'],
    },
  };
}

export function sampleAPIService(): Record<string, unknown> {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1beta1.metrics.k8s.io', resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: {
      service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      insecureSkipTLSVerify: true,
      caBundle: 'Y2EtYnVuZGxl',
      groupPriorityMinimum: 100,
      versionPriority: 100,
    },
    status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: '2026-01-02T03:04:06Z', reason: 'FailedDiscoveryCheck', message: 'no' }] },
  };
}

/**
 * The CustomResourceDefinition message (no envelope) Go's k8s.io/apiextensions-apiserver v0.36.3
 * writes for richCRD() (json.Unmarshal of its JSON, then Marshal), base64: gogo writes every
 * non-pointer field, so these bytes are not kapi's, but must decode to the same object.
 */
export const RICH_CRD_GO_PROTOBUF = [
  'CmAKE3dpZGdldHMuZXhhbXBsZS5jb20SABoAIgAqJDBiNWMyZjZlLTExMTEtMjIyMi0zMzMzLTQ0NDQ1NTU1NjY2NjICNDI4AkII',
  'CKXr3MoGEABaDQoDYXBwEgZ3aWRnZXQSghAKC2V4YW1wbGUuY29tGi4KB3dpZGdldHMSBndpZGdldBoCd2ciBldpZGdldCoKV2lk',
  'Z2V0TGlzdDIDYWxsIgpOYW1lc3BhY2VkOrAOCgJ2MRABGAEipg0Kow0KBndpZGdldBInaHR0cDovL2pzb24tc2NoZW1hLm9yZy9k',
  'cmFmdC0wNC9zY2hlbWEjIghhIHdpZGdldCoGb2JqZWN0MgA6BldpZGdldFAAYAB6AJABALoBBHNwZWPqAZgMCgRzcGVjEo8MCgAS',
  'ACIAKgZvYmplY3QyADoAQj0KO3sicmVwbGljYXMiOjEsInRhZ3MiOlsiYSJdLCJuZXN0ZWQiOnsib24iOnRydWUsIm9mZiI6bnVs',
  'bH19UABgAHoAkAEA6gG9AQoGY2hvaWNlErIBCgASACIAKgAyADoAUABgAHoAkAEAygEiCgASACIAKgAyADoAUABgAHoAkAEAugEB',
  'ZKgCALgCAMACANIBIgoAEgAiACoAMgA6AFAAYAB6AJABALoBAWGoAgC4AgDAAgDSASIKABIAIgAqADIAOgBQAGAAegCQAQC6AQFi',
  'qAIAuAIAwAIA4gEiCgASACIAKgAyADoAUABgAHoAkAEAugEBY6gCALgCAMACAKgCALgCAMACAOoBMwoGY2xvc2VkEikKABIAIgAq',
  'Bm9iamVjdDIAOgBQAGAAegCQAQDyAQIIAKgCALgCAMACAOoBMwoIZW1iZWRkZWQSJwoAEgAiACoGb2JqZWN0MgA6AFAAYAB6AJAB',
  'AKgCALACAbgCAcACAOoBagoGbGFiZWxzEmAKABIAIgAqBm9iamVjdDIAOgBQAGAAegCQAQCoAQqwAQDyASgIARIkCgASACIAKgZz',
  'dHJpbmcyADoAUABgAHoAkAEAqAIAuAIAwAIAqAIAuAIAwAIA2gIIZ3JhbnVsYXLqAWAKBGxpc3QSWAoAEgAiACoFYXJyYXkyADoA',
  'UABgAHoAgAEFiAEBkAEBwgEmCiQKABIAIgAqBnN0cmluZzIAOgBQAGAAegCQAQCoAgC4AgDAAgCoAgC4AgDAAgDSAgNzZXTqAUsK',
  'BG5hbWUSQwoAEgAiACoGc3RyaW5nMgA6AFAAYABoP3ABegheW2Etel0rJJABAKIBBQoDImEiogEFCgMiYiKiAQCoAgG4AgDAAgDq',
  'ATEKBG9wZW4SKQoAEgAiACoGb2JqZWN0MgA6AFAAYAB6AJABAPIBAggBqAIAuAIAwAIA6gF1CgRwb3J0Em0KABIAIgAqADIAOgBQ',
  'AGAAegCQAQDaASUKABIAIgAqB2ludGVnZXIyADoAUABgAHoAkAEAqAIAuAIAwAIA2gEkCgASACIAKgZzdHJpbmcyADoAUABgAHoA',
  'kAEAqAIAuAIAwAIAqAIAuAIAwAIB6gHcAQoFcG9ydHMS0gEKABIAIgAqBWFycmF5MgA6AFAAYAB6AJABAMIBkwEKkAEKABIAIgAq',
  'Bm9iamVjdDIAOgBQAGAAegCQAQDqAS0KBHBvcnQSJQoAEgAiACoHaW50ZWdlcjIAOgBQAGAAegCQAQCoAgC4AgDAAgDqATkKCHBy',
  'b3RvY29sEi0KABIAIgAqBnN0cmluZzIAOgBCBwoFIlRDUCJQAGAAegCQAQCoAgC4AgDAAgCoAgC4AgDAAgCoAgC4AgDAAgDKAgRw',
  'b3J0ygIIcHJvdG9jb2zSAgNtYXDqAVcKCHJlcGxpY2FzEksKABIAIgAqB2ludGVnZXIyBWludDMyOgBCAwoBMUkAAAAAACBZQFAB',
  'WQAAAAAAAAAAYAB6AJABAJkBAAAAAAAA8D+oAgC4AgDAAgDqAYEBCgV0dXBsZRJ4CgASACIAKgVhcnJheTIAOgBQAGAAegCQAQDC',
  'AU0SJAoAEgAiACoGc3RyaW5nMgA6AFAAYAB6AJABAKgCALgCAMACABIlCgASACIAKgdpbnRlZ2VyMgA6AFAAYAB6AJABAKgCALgC',
  'AMACAIoCAggAqAIAuAIAwAIA+gErCgNeeC0SJAoAEgAiACoGc3RyaW5nMgA6AFAAYAB6AJABAKgCALgCAMACAIICCwoBYRIGEgFi',
  'EgFjggIpCgFkEiQKIgoAEgAiACoAMgA6AFAAYAB6AJABALoBAWWoAgC4AgDAAgCiAhUKEyJhbiBleGFtcGxlIHN0cmluZyKoAgC4',
  'AgDAAgDiAkIKFHNlbGYucmVwbGljYXMgPD0gMTAwEgh0b28gbWFueRoAIhFGaWVsZFZhbHVlSW52YWxpZCoJLnJlcGxpY2FzMAHi',
  'Ai4KD3NlbGYubmFtZSAhPSAiIhIAGhciYmFkIG5hbWUgIiArIHNlbGYubmFtZSoAmgIbCgRkb2NzEhNodHRwczovL2V4YW1wbGUu',
  'Y29tqAIAsAIAuAIAwAIAKjgKABI0Cg4uc3BlYy5yZXBsaWNhcxIQLnN0YXR1cy5yZXBsaWNhcxoQLnN0YXR1cy5zZWxlY3RvcjIz',
  'CghSZXBsaWNhcxIHaW50ZWdlchoFaW50MzIiBWNvdW50KAEyDi5zcGVjLnJlcGxpY2FzOABKDAoKLnNwZWMubmFtZTpCCgd2MWJl',
  'dGExEAEYACIpCicKABIAIgAqBm9iamVjdDIAOgBQAGAAegCQAQCoAgCwAgG4AgDAAgA4AUIGdXNlIHYxSj4KB1dlYmhvb2sSMxIk',
  'ChcKAm5zEgRjb252GggvY29udmVydCD7QRIJY2EtYnVuZGxlGgJ2MRoHdjFiZXRhMVAAGpMBClsKC0VzdGFibGlzaGVkEgRUcnVl',
  'GggIpuvcygYQACIUSW5pdGlhbE5hbWVzQWNjZXB0ZWQqJHRoZSBpbml0aWFsIG5hbWVzIGhhdmUgYmVlbiBhY2NlcHRlZDAAEi4K',
  'B3dpZGdldHMSBndpZGdldBoCd2ciBldpZGdldCoKV2lkZ2V0TGlzdDIDYWxsGgJ2MSAA',
].join('');
