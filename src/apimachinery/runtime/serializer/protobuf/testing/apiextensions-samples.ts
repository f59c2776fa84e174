// Filled apiextensions.k8s.io/v1 CustomResourceDefinition and apiregistration.k8s.io/v1 APIService
// objects in the JSON form kube prints them (every non-omitempty field present), for protobuf tests.

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
