import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBenchArgs } from './options.ts';

test('parseBenchArgs', async (t) => {
  const cases = [
    { name: 'defaults: both stores, sqlite first', args: [], want: { json: false, workers: 64, backends: ['sqlite', 'etcd'], phases: ['throughput', 'hostile'] } },
    { name: '--backend sqlite', args: ['--backend', 'sqlite'], want: { json: false, workers: 64, backends: ['sqlite'], phases: ['throughput', 'hostile'] } },
    { name: '--backend=etcd', args: ['--backend=etcd'], want: { json: false, workers: 64, backends: ['etcd'], phases: ['throughput', 'hostile'] } },
    { name: '--backend all', args: ['--backend', 'all'], want: { json: false, workers: 64, backends: ['sqlite', 'etcd'], phases: ['throughput', 'hostile'] } },
    { name: '--phase hostile', args: ['--phase', 'hostile', '--backend', 'sqlite'], want: { json: false, workers: 64, backends: ['sqlite'], phases: ['hostile'] } },
    { name: '--phase throughput', args: ['--phase=throughput'], want: { json: false, workers: 64, backends: ['sqlite', 'etcd'], phases: ['throughput'] } },
    { name: '--json and --concurrency', args: ['--json', '--concurrency', '8'], want: { json: true, workers: 8, backends: ['sqlite', 'etcd'], phases: ['throughput', 'hostile'] } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(parseBenchArgs(c.args), c.want));
  }
});

test('parseBenchArgs rejects bad input', async (t) => {
  const cases = [
    { name: 'unknown backend', args: ['--backend', 'mysql'], want: /bad --backend mysql: want sqlite, etcd or all/ },
    { name: 'inherited property name', args: ['--backend', 'toString'], want: /bad --backend toString/ },
    { name: 'unknown phase', args: ['--phase', 'chaos'], want: /bad --phase chaos: want throughput, hostile or all/ },
    { name: 'zero workers', args: ['--concurrency', '0'], want: /bad --concurrency 0/ },
    { name: 'fractional workers', args: ['--concurrency', '1.5'], want: /bad --concurrency 1.5/ },
    { name: 'unknown option', args: ['--fast'], want: /Unknown option '--fast'/ },
    { name: 'positional', args: ['etcd'], want: /Unexpected argument 'etcd'/ },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.throws(() => parseBenchArgs(c.args), c.want));
  }
});
