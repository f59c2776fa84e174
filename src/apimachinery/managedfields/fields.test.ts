import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { schemaForGVK } from '../openapi/index.ts';
import { applyConfiguration, fieldsOf } from './fields.ts';
import { fieldElement as f } from './path-element.ts';
import { FieldSet } from './set.ts';

const pod = schemaForGVK({ group: '', version: 'v1', kind: 'Pod' });

describe('applyConfiguration', () => {
  const cases = [
    {
      name: 'containers merged by name, applied values win',
      live: { spec: { containers: [{ name: 'a', image: 'x', args: ['1', '2'] }, { name: 'b', image: 'y' }] } },
      applied: { spec: { containers: [{ name: 'b', image: 'z' }] } },
      want: { spec: { containers: [{ name: 'a', image: 'x', args: ['1', '2'] }, { name: 'b', image: 'z' }] } },
    },
    {
      name: 'atomic lists are replaced',
      live: { spec: { containers: [{ name: 'a', args: ['1', '2'] }] } },
      applied: { spec: { containers: [{ name: 'a', args: ['3'] }] } },
      want: { spec: { containers: [{ name: 'a', args: ['3'] }] } },
    },
    {
      name: 'sets are unioned',
      live: { metadata: { finalizers: ['x', 'y'] } },
      applied: { metadata: { finalizers: ['z', 'x'] } },
      want: { metadata: { finalizers: ['z', 'x', 'y'] } },
    },
    {
      name: 'labels are granular',
      live: { metadata: { labels: { a: '1' } } },
      applied: { metadata: { labels: { b: '2' } } },
      want: { metadata: { labels: { a: '1', b: '2' } } },
    },
    {
      name: 'without schema, lists are atomic and maps granular',
      live: { spec: { list: [1, 2], map: { a: 1 } } },
      applied: { spec: { list: [3], map: { b: 2 } } },
      want: { spec: { list: [3], map: { a: 1, b: 2 } } },
      noSchema: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(applyConfiguration(c.live, c.applied, c.noSchema === true ? undefined : pod), c.want));
  }

  it('removes what was applied before and is no longer, unless owned by others', () => {
    const live = { metadata: { labels: { a: '1', b: '2', c: '3' } } };
    const previouslyApplied = FieldSet.of([f('metadata'), f('labels'), f('a')], [f('metadata'), f('labels'), f('b')]);
    const ownedByOthers = FieldSet.of([f('metadata'), f('labels'), f('b')]);
    assert.deepEqual(applyConfiguration(live, { metadata: {} }, pod, { previouslyApplied, ownedByOthers }),
      { metadata: { labels: { b: '2', c: '3' } } });
  });
});

describe('fieldsOf', () => {
  it('lists leaves, list items and map entries of a pod', () => {
    const set = fieldsOf({ metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i' }], nodeSelector: {} } }, pod);
    assert.deepEqual(set.toFieldsV1(), {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } }, 'f:nodeSelector': {} },
    });
  });
});
