import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ManagedFieldsEntry } from '../meta/types.ts';
import { replicasPath, scaleToParent, scaleToSubresource } from './scale-handler.ts';

const T = '2013-02-03T00:00:00Z';
const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
const entry = (manager: string, operation: 'Apply' | 'Update', apiVersion: string, fieldsV1: Record<string, unknown>,
  extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry =>
  ({ manager, operation, apiVersion, ...(extra.time !== undefined ? { time: extra.time } : {}), fieldsType: 'FieldsV1', fieldsV1,
    ...(extra.subresource !== undefined ? { subresource: extra.subresource } : {}) });
const path = replicasPath();

describe('scale handler', () => {
  it('ToSubresource keeps the owners of replicas, renamed to autoscaling/v1, with their times', () => {
    const parent = [
      entry('manager-1', 'Apply', 'apps/v1', { 'f:spec': { 'f:another-field': {} } }),
      entry('manager-2', 'Apply', 'apps/v1', REPLICAS, { time: T }),
      entry('manager-3', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' }),
    ];
    assert.deepEqual(scaleToSubresource(parent, path), [
      entry('manager-2', 'Apply', 'autoscaling/v1', REPLICAS, { time: T }),
      entry('manager-3', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale' }),
    ]);
    assert.equal(scaleToSubresource([entry('m', 'Update', 'apps/v1', { 'f:spec': { 'f:paused': {} } })], path), undefined);
  });

  const toParent = [
    { name: 'another manager\'s update takes replicas from an applier',
      parent: [entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } })],
      scale: [entry('scale', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale', time: T })],
      want: [entry('test', 'Apply', 'apps/v1', { 'f:spec': { 'f:selector': {} } }),
        entry('scale', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' })] },
    { name: 'an owner left with nothing is dropped',
      parent: [entry('creator', 'Update', 'apps/v1', REPLICAS, { time: T })],
      scale: [entry('kubectl', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale', time: T })],
      want: [entry('kubectl', 'Update', 'apps/v1', REPLICAS, { subresource: 'scale' })] },
    { name: 'an applier through scale keeps its parent entry and time',
      parent: [entry('test', 'Apply', 'apps/v1', REPLICAS, { subresource: 'scale', time: T })],
      scale: [entry('test', 'Apply', 'autoscaling/v1', REPLICAS, { subresource: 'scale', time: T })],
      want: [entry('test', 'Apply', 'apps/v1', REPLICAS, { subresource: 'scale', time: T })] },
    { name: 'entries without replicas are kept as they are',
      parent: [entry('other', 'Update', 'apps/v1', { 'f:metadata': { 'f:labels': {} } }, { time: T })],
      scale: undefined,
      want: [entry('other', 'Update', 'apps/v1', { 'f:metadata': { 'f:labels': {} } }, { time: T })] },
  ];
  for (const c of toParent) {
    it(`ToParent: ${c.name}`, () => {
      assert.deepEqual(scaleToParent(c.parent, c.scale, 'apps/v1', path), c.want);
    });
  }

  it('follows a custom replicas path', () => {
    const p = replicasPath('.spec.size');
    const parent = [entry('m', 'Update', 'example.com/v1', { 'f:spec': { 'f:size': {}, 'f:color': {} } }, { time: T })];
    assert.deepEqual(scaleToSubresource(parent, p), [entry('m', 'Update', 'autoscaling/v1', REPLICAS, { time: T })]);
    assert.deepEqual(scaleToParent(parent, [entry('hpa', 'Update', 'autoscaling/v1', REPLICAS, { subresource: 'scale', time: T })], 'example.com/v1', p), [
      entry('hpa', 'Update', 'example.com/v1', { 'f:spec': { 'f:size': {} } }, { subresource: 'scale' }),
      entry('m', 'Update', 'example.com/v1', { 'f:spec': { 'f:color': {} } }, { time: T }),
    ]);
  });
});
