import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closureOf, definitionForGVK, getDefinitions, getSchema, resolveSchema, schemaForGVK } from './definitions.ts';
import type { SchemaNode } from './types.ts';
import { elementSchema, fieldMeta, fieldMetaAtPath, schemaAtPath } from './field-meta.ts';

test('generated definitions carry structure but no prose', () => {
  const defs = getDefinitions();
  assert.ok(Object.keys(defs).length > 700);
  const prose: string[] = [];
  const walk = (n: SchemaNode, at: string): void => {
    if ('description' in n) prose.push(at);
    for (const [k, p] of Object.entries(n.properties ?? {})) walk(p, `${at}.${k}`);
    if (n.items !== undefined) walk(n.items, `${at}[]`);
    if (typeof n.additionalProperties === 'object') walk(n.additionalProperties, `${at}{}`);
  };
  for (const [name, def] of Object.entries(defs)) walk(def, name);
  assert.deepEqual(prose, []);
  const cm = getSchema('io.k8s.api.core.v1.ConfigMap');
  assert.deepEqual(cm?.['x-kubernetes-group-version-kind'], [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
  assert.deepEqual(cm?.properties?.['data'], { type: 'object', additionalProperties: { type: 'string' } });
  assert.equal(cm?.properties?.['metadata']?.$ref, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
});

test('definitionForGVK', () => {
  const cases = [
    { name: 'core', gvk: { group: '', version: 'v1', kind: 'Pod' }, want: 'io.k8s.api.core.v1.Pod' },
    { name: 'apps', gvk: { group: 'apps', version: 'v1', kind: 'Deployment' }, want: 'io.k8s.api.apps.v1.Deployment' },
    { name: 'autoscaling scale', gvk: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, want: 'io.k8s.api.autoscaling.v1.Scale' },
    { name: 'shared meta kind', gvk: { group: 'apps', version: 'v1', kind: 'DeleteOptions' },
      want: 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions' },
    { name: 'crd', gvk: { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' },
      want: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition' },
    { name: 'unknown', gvk: { group: 'example.com', version: 'v1', kind: 'Foo' }, want: undefined },
  ];
  for (const c of cases) assert.equal(definitionForGVK(c.gvk), c.want, c.name);
  assert.equal(schemaForGVK({ group: '', version: 'v1', kind: 'Namespace' })?.type, 'object');
});

test('resolveSchema follows $ref', () => {
  const pod = getSchema('io.k8s.api.core.v1.Pod');
  const spec = resolveSchema(pod?.properties?.['spec']);
  assert.ok(spec?.properties?.['containers']);
});

test('field meta for strategic merge patch and apply', () => {
  const pod = schemaForGVK({ group: '', version: 'v1', kind: 'Pod' });
  const containers = fieldMetaAtPath(pod, ['spec', 'containers']);
  assert.deepEqual(containers?.patchStrategies, ['merge']);
  assert.equal(containers?.patchMergeKey, 'name');
  assert.equal(containers?.listType, 'map');
  assert.deepEqual(containers?.listMapKeys, ['name']);
  const volumes = fieldMetaAtPath(pod, ['spec', 'volumes']);
  assert.deepEqual(volumes?.patchStrategies, ['merge', 'retainKeys']);
  const ports = fieldMeta(elementSchema(containers?.schema), 'ports');
  assert.equal(ports?.patchMergeKey, 'containerPort');
  assert.deepEqual(ports?.listMapKeys, ['containerPort', 'protocol']);
  const labels = fieldMetaAtPath(pod, ['metadata', 'labels']);
  assert.deepEqual(labels?.patchStrategies, []);
  assert.equal(labels?.schema?.type, 'object');
  const finalizers = fieldMetaAtPath(pod, ['metadata', 'finalizers']);
  assert.equal(finalizers?.listType, 'set');
  assert.equal(schemaAtPath(pod, ['spec', 'containers', 0, 'image'])?.type, 'string');
  assert.equal(schemaAtPath(pod, ['spec', 'nope']), undefined);
  // map values: every key has the value schema
  const data = fieldMetaAtPath(getSchema('io.k8s.api.core.v1.ConfigMap'), ['data', 'anykey']);
  assert.equal(data?.schema?.type, 'string');
  // map type comes from the referred definition when the property has none
  const selector = fieldMetaAtPath(getSchema('io.k8s.api.apps.v1.DeploymentSpec'), ['selector']);
  assert.equal(selector?.mapType, 'atomic');
});

test('closureOf collects referenced definitions', () => {
  const names = closureOf(['io.k8s.api.core.v1.ConfigMap']);
  assert.ok(names.includes('io.k8s.api.core.v1.ConfigMap'));
  assert.ok(names.includes('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'));
  assert.ok(names.includes('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'));
  assert.equal(names.includes('io.k8s.api.core.v1.PodSpec'), false);
});
