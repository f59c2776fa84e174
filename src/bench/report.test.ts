import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figure, toJSON, toMarkdown, toTable } from './report.ts';

test('figure', async (t) => {
  const cases = [
    { name: 'rounds value, baseline and ratio', got: figure('etcd-create', 'ops/s', 266.4, 1124.2),
      want: { name: 'etcd-create', value: 266, unit: 'ops/s', baseline: 1124, ratio: 0.237 } },
    { name: 'with kube-apiserver: its value and kapi/kube', got: figure('create', 'ops/s', 1500, 6000, 1000),
      want: { name: 'create', value: 1500, unit: 'ops/s', baseline: 6000, ratio: 0.25, kube: 1000, kubeRatio: 1.5 } },
    { name: 'no bare baseline (watchers, start-up)', got: figure('startup', 'ms', 812.4, undefined, 4275.7),
      want: { name: 'startup', value: 812, unit: 'ms', kube: 4276, kubeRatio: 0.19 } },
    { name: 'neither', got: figure('watchers-p99', 'ms', 12.34, undefined),
      want: { name: 'watchers-p99', value: 12.3, unit: 'ms' } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(c.got, c.want));
  }
});

test('toJSON keeps one object with the figures in order', () => {
  const figures = [figure('create', 'ops/s', 1000, 2000), figure('etcd-watch-p99', 'ms', 20, 10, 40),
    figure('watchers-creates', 'ops/s', 40, undefined, 80)];
  assert.deepEqual(JSON.parse(toJSON(figures)), {
    figures: [
      { name: 'create', value: 1000, unit: 'ops/s', baseline: 2000, ratio: 0.5 },
      { name: 'etcd-watch-p99', value: 20, unit: 'ms', baseline: 10, ratio: 2, kubeApiserver: 40, kubeRatio: 0.5 },
      { name: 'watchers-creates', value: 40, unit: 'ops/s', kubeApiserver: 80, kubeRatio: 0.5 },
    ],
  });
});

const cells = (table: string): string[][] => table.split('\n').map((l) => l.split(/\s+/));

test('toTable', async (t) => {
  const cases = [
    {
      name: 'without kube-apiserver: no kube columns',
      figures: [figure('list-1k', 'ms', 63.3, 12.2), figure('etcd-list-1k', 'ms', 28.7, 12.6)],
      want: [
        ['figure', 'kapi', 'baseline', 'ratio', 'unit', 'better'],
        ['------------', '----', '--------', '-----', '----', '------'],
        ['list-1k', '63.3', '12.2', '5.19', 'ms', 'lower'],
        ['etcd-list-1k', '28.7', '12.6', '2.28', 'ms', 'lower'],
        [''],
        ['a', 'note'],
      ],
    },
    {
      name: 'with kube-apiserver: its columns, "-" where a figure has no value',
      figures: [figure('get', 'ops/s', 5000, 8000, 4000), figure('watchers-p99', 'ms', 30, undefined, 20),
        figure('hostile-deep-create-stall', 'ms', 5, 4)],
      want: [
        ['figure', 'kapi', 'baseline', 'ratio', 'kube-apiserver', 'kapi/kube', 'unit', 'better'],
        ['-------------------------', '----', '--------', '-----', '--------------', '---------', '-----', '------'],
        ['get', '5000', '8000', '0.625', '4000', '1.25', 'ops/s', 'higher'],
        ['watchers-p99', '30', '-', '-', '20', '1.5', 'ms', 'lower'],
        ['hostile-deep-create-stall', '5', '4', '1.25', '-', '-', 'ms', 'lower'],
        [''],
        ['a', 'note'],
      ],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(cells(toTable(c.figures, ['a note'])), c.want));
  }
});

test('toMarkdown: the README table', async (t) => {
  const cases = [
    {
      name: 'with kube-apiserver',
      figures: [figure('create', 'ops/s', 1500, 6000, 1000), figure('etcd-startup', 'ms', 2900, undefined, 4300)],
      want: [
        '| figure | kapi | baseline | ratio | kube-apiserver | kapi/kube |',
        '|---|---:|---:|---:|---:|---:|',
        '| create (ops/s) | 1500 | 6000 | 0.25 | 1000 | 1.5 |',
        '| etcd-startup (ms) | 2900 | - | - | 4300 | 0.674 |',
      ],
    },
    {
      name: 'without kube-apiserver',
      figures: [figure('list-10k', 'ms', 236, 47)],
      want: ['| figure | kapi | baseline | ratio |', '|---|---:|---:|---:|', '| list-10k (ms) | 236 | 47 | 5.02 |'],
    },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(toMarkdown(c.figures).split('\n'), c.want));
  }
});
