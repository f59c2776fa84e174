// A create records no "." for fields Go's zero value of the kind already holds (non-pointer
// structs, slices without omitempty), as kube-apiserver v1.36.3 records them (asked through
// src/e2e/testing/oracle.ts with the differential corpus).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../meta/types.ts';
import { schemaForGVK } from '../openapi/index.ts';
import { updateManagedFields } from './field-manager.ts';

function created(group: string, version: string, kind: string, body: Record<string, unknown>): unknown {
  const apiVersion = group === '' ? version : `${group}/${version}`;
  const obj = { apiVersion, kind, metadata: { name: 'o' }, ...body } as unknown as KubeObject;
  const out = updateManagedFields({ apiVersion, kind, schema: schemaForGVK({ group, version, kind }), typed: true, live: undefined, updated: obj, manager: 'm', time: '2026-01-01T00:00:00Z' });
  return out.metadata.managedFields?.[0]?.fieldsV1;
}

describe('the empty object a create is compared with', () => {
  const cases: { name: string; gvk: [string, string, string]; body: Record<string, unknown>; want: unknown }[] = [
    { name: 'a PersistentVolumeClaim\'s resources struct', gvk: ['', 'v1', 'PersistentVolumeClaim'],
      body: { spec: { resources: { requests: { storage: '1Gi' } } } },
      want: { 'f:spec': { 'f:resources': { 'f:requests': { '.': {}, 'f:storage': {} } } } } },
    { name: 'a PodTemplate\'s template', gvk: ['', 'v1', 'PodTemplate'],
      body: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
      want: { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } },
    { name: 'a HorizontalPodAutoscaler\'s scaleTargetRef', gvk: ['autoscaling', 'v2', 'HorizontalPodAutoscaler'],
      body: { spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2 } },
      want: { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': { 'f:kind': {}, 'f:name': {} } } } },
    { name: 'a VolumeAttachment\'s source', gvk: ['storage.k8s.io', 'v1', 'VolumeAttachment'],
      body: { spec: { attacher: 'a', nodeName: 'n', source: { persistentVolumeName: 'pv' } } },
      want: { 'f:spec': { 'f:attacher': {}, 'f:nodeName': {}, 'f:source': { 'f:persistentVolumeName': {} } } } },
    { name: 'a CSINode\'s drivers (a slice Go writes as null)', gvk: ['storage.k8s.io', 'v1', 'CSINode'],
      body: { spec: { drivers: [{ name: 'd', nodeID: 'n' }] } },
      want: { 'f:spec': { 'f:drivers': { 'k:{"name":"d"}': { '.': {}, 'f:name': {}, 'f:nodeID': {} } } } } },
    { name: 'a Deployment\'s containers (a slice Go writes as null)', gvk: ['apps', 'v1', 'Deployment'],
      body: { spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } },
      want: { 'f:spec': { 'f:selector': {}, 'f:template': { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
        'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } } },
  ];
  for (const c of cases) {
    it(c.name, () => { assert.deepEqual(created(...c.gvk, c.body), c.want); });
  }
});
