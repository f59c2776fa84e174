import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figure, toJSON, toTable } from './report.ts';

test('figure rounds value, baseline and ratio', () => {
  assert.deepEqual(figure('etcd-create', 'ops/s', 266.4, 1124.2),
    { name: 'etcd-create', value: 266, unit: 'ops/s', baseline: 1124, ratio: 0.237 });
});

test('toJSON keeps one object with the figures in order', () => {
  const figures = [figure('create', 'ops/s', 1000, 2000), figure('etcd-watch-p99', 'ms', 20, 10)];
  assert.deepEqual(JSON.parse(toJSON(figures)), {
    figures: [
      { name: 'create', value: 1000, unit: 'ops/s', baseline: 2000, ratio: 0.5 },
      { name: 'etcd-watch-p99', value: 20, unit: 'ms', baseline: 10, ratio: 2 },
    ],
  });
});

test('toTable: a header, a row per figure, then the notes', () => {
  const table = toTable([figure('list-1k', 'ms', 63.3, 12.2), figure('etcd-list-1k', 'ms', 28.7, 12.6)], ['a note']);
  assert.deepEqual(table.split('\n').map((l) => l.split(/\s+/)), [
    ['figure', 'kapi', 'baseline', 'unit', 'ratio', 'better'],
    ['------------', '----', '--------', '----', '-----', '------'],
    ['list-1k', '63.3', '12.2', 'ms', '5.19', 'lower'],
    ['etcd-list-1k', '28.7', '12.6', 'ms', '2.28', 'lower'],
    [''],
    ['a', 'note'],
  ]);
});
