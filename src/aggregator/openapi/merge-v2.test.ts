import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterSpecByPaths, mergeSpecs, type JsonObject } from './merge-v2.ts';

const ref = (name: string): JsonObject => ({ $ref: `#/definitions/${name}` });
const op = (def: string, param?: string): JsonObject =>
  ({ get: { responses: { 200: { schema: ref(def) } } }, ...(param === undefined ? {} : { parameters: [{ $ref: `#/parameters/${param}` }] }) });

const backend: JsonObject = {
  swagger: '2.0', info: { title: 'wardle', version: 'v0' },
  paths: {
    '/apis/wardle.example.com/v1alpha1/': op('APIResourceList'),
    '/apis/wardle.example.com/v1alpha1/flunders': op('FlunderList', 'pretty'),
    '/apis/other.example.com/v1/things': op('Thing'),
    '/version/': op('Info'),
  },
  definitions: {
    APIResourceList: { type: 'object', properties: { kind: { type: 'string' } } },
    FlunderList: { type: 'object', properties: { items: { type: 'array', items: ref('Flunder') } } },
    Flunder: { type: 'object', properties: { spec: { type: 'string' } }, 'x-kubernetes-group-version-kind': [{ group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' }] },
    Thing: { type: 'object' },
    Info: { type: 'object' },
  },
  parameters: { pretty: { name: 'pretty', in: 'query', type: 'string' }, unused: { name: 'x', in: 'query', type: 'string' } },
};

describe('OpenAPI v2 aggregation (kube-openapi aggregator)', () => {
  it('FilterSpecByPaths keeps the group version\'s paths and what they use, transitively', () => {
    const got = filterSpecByPaths(backend, ['/apis/wardle.example.com/v1alpha1/']);
    assert.deepEqual(Object.keys(got['paths'] as JsonObject), ['/apis/wardle.example.com/v1alpha1/', '/apis/wardle.example.com/v1alpha1/flunders']);
    assert.deepEqual(Object.keys(got['definitions'] as JsonObject).sort(), ['APIResourceList', 'Flunder', 'FlunderList']);
    assert.deepEqual(Object.keys(got['parameters'] as JsonObject), ['pretty']);
    assert.equal((backend['paths'] as JsonObject)['/version/'] !== undefined, true, 'the input is left alone');
  });

  it('merging: paths already served stay, a clashing definition is renamed _v2 with its references, an equal one joins GVKs', () => {
    const dest: JsonObject = {
      swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.36.3' },
      paths: { '/apis/wardle.example.com/v1alpha1/': op('APIResourceList') },
      definitions: {
        APIResourceList: { type: 'object', properties: { kind: { type: 'string' }, groupVersion: { type: 'string' } } },
        Flunder: { type: 'object', properties: { spec: { type: 'string' } }, 'x-kubernetes-group-version-kind': [{ group: 'old.example.com', version: 'v1', kind: 'Flunder' }] },
      },
      parameters: { pretty: { name: 'pretty', in: 'query', type: 'boolean' } },
    };
    mergeSpecs(dest, filterSpecByPaths(backend, ['/apis/wardle.example.com/v1alpha1/']));
    assert.deepEqual(Object.keys(dest['paths'] as JsonObject), ['/apis/wardle.example.com/v1alpha1/', '/apis/wardle.example.com/v1alpha1/flunders']);
    assert.deepEqual((dest['paths'] as JsonObject)['/apis/wardle.example.com/v1alpha1/'], op('APIResourceList'), 'the local path wins');
    const defs = dest['definitions'] as JsonObject;
    // Only the definitions the kept path uses come over; APIResourceList is not among them.
    assert.deepEqual(Object.keys(defs), ['APIResourceList', 'Flunder', 'FlunderList']);
    assert.deepEqual((defs['Flunder'] as JsonObject)['x-kubernetes-group-version-kind'], [
      { group: 'old.example.com', version: 'v1', kind: 'Flunder' }, { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' },
    ]);
    const params = dest['parameters'] as JsonObject;
    assert.deepEqual(Object.keys(params), ['pretty', 'pretty_v2']);
    assert.deepEqual((dest['paths'] as JsonObject)['/apis/wardle.example.com/v1alpha1/flunders'], op('FlunderList', 'pretty_v2'));
  });

  it('a clashing definition is renamed and the paths that use it point at the new name', () => {
    const dest: JsonObject = { paths: { '/api/v1/': op('Thing') }, definitions: { FlunderList: { type: 'string' } } };
    mergeSpecs(dest, filterSpecByPaths(backend, ['/apis/wardle.example.com/v1alpha1/flunders']));
    assert.deepEqual(Object.keys(dest['definitions'] as JsonObject), ['Flunder', 'FlunderList', 'FlunderList_v2']);
    assert.deepEqual((dest['paths'] as JsonObject)['/apis/wardle.example.com/v1alpha1/flunders'], op('FlunderList_v2', 'pretty'));
  });

  it('a source whose paths are all served already adds nothing', () => {
    const dest: JsonObject = { paths: { '/apis/other.example.com/v1/things': op('Thing') }, definitions: {} };
    mergeSpecs(dest, filterSpecByPaths(backend, ['/apis/other.example.com/']));
    assert.deepEqual(dest, { paths: { '/apis/other.example.com/v1/things': op('Thing') }, definitions: {} });
  });
});
