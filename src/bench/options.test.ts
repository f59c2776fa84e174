import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_HELP, parseBenchArgs, type BenchOptions } from './options.ts';

const DEFAULTS: BenchOptions = {
  help: false, json: false, markdown: false, workers: 64, backends: ['sqlite', 'etcd'],
  phases: ['startup', 'throughput', 'watchers', 'hostile', 'cel', 'apf', 'webhooks', 'cache', 'storage'], kube: 'auto', watchers: 1000, startupRuns: 3,
};

test('parseBenchArgs', async (t) => {
  const cases: { name: string; args: string[]; want: Partial<BenchOptions> }[] = [
    { name: 'defaults: both stores, sqlite first, every phase, kube-apiserver when cached', args: [], want: {} },
    { name: '--backend sqlite', args: ['--backend', 'sqlite'], want: { backends: ['sqlite'] } },
    { name: '--backend=etcd', args: ['--backend=etcd'], want: { backends: ['etcd'] } },
    { name: '--backend all', args: ['--backend', 'all'], want: { backends: ['sqlite', 'etcd'] } },
    { name: '--phase hostile', args: ['--phase', 'hostile', '--backend', 'sqlite'], want: { backends: ['sqlite'], phases: ['hostile'] } },
    { name: '--phase cel', args: ['--phase', 'cel', '--backend', 'sqlite'], want: { backends: ['sqlite'], phases: ['cel'] } },
    { name: '--phase webhooks', args: ['--phase', 'webhooks', '--backend', 'sqlite'], want: { backends: ['sqlite'], phases: ['webhooks'] } },
    { name: '--phase throughput', args: ['--phase=throughput'], want: { phases: ['throughput'] } },
    { name: '--phase list runs in the fixed order', args: ['--phase', 'watchers,startup'], want: { phases: ['startup', 'watchers'] } },
    { name: '--phase list with spaces and a repeat', args: ['--phase', 'throughput, throughput'], want: { phases: ['throughput'] } },
    { name: '--phase all', args: ['--phase', 'all'], want: {} },
    { name: '--kube-apiserver off', args: ['--kube-apiserver', 'off'], want: { kube: 'off' } },
    { name: '--kube-apiserver require', args: ['--kube-apiserver=require'], want: { kube: 'require' } },
    { name: '--watchers and --startup-runs', args: ['--watchers', '100', '--startup-runs', '5'], want: { watchers: 100, startupRuns: 5 } },
    { name: '--json and --concurrency', args: ['--json', '--concurrency', '8'], want: { json: true, workers: 8 } },
    { name: '--markdown', args: ['--markdown'], want: { markdown: true } },
    { name: '--help', args: ['--help'], want: { help: true } },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.deepEqual(parseBenchArgs(c.args), { ...DEFAULTS, ...c.want }));
  }
});

test('parseBenchArgs rejects bad input', async (t) => {
  const cases = [
    { name: 'unknown backend', args: ['--backend', 'mysql'], want: /bad --backend mysql: want sqlite, etcd or all/ },
    { name: 'inherited property name', args: ['--backend', 'toString'], want: /bad --backend toString/ },
    { name: 'unknown phase', args: ['--phase', 'chaos'], want: /bad --phase chaos: want a comma-separated list of startup, throughput, watchers, hostile, cel, apf, webhooks, cache, storage, or all/ },
    { name: 'unknown phase in a list', args: ['--phase', 'startup,chaos'], want: /bad --phase startup,chaos/ },
    { name: 'empty phase', args: ['--phase', ''], want: /bad --phase :/ },
    { name: 'inherited phase name', args: ['--phase', 'constructor'], want: /bad --phase constructor/ },
    { name: 'unknown kube-apiserver mode', args: ['--kube-apiserver', 'yes'], want: /bad --kube-apiserver yes: want auto, off or require/ },
    { name: 'zero workers', args: ['--concurrency', '0'], want: /bad --concurrency 0/ },
    { name: 'fractional workers', args: ['--concurrency', '1.5'], want: /bad --concurrency 1.5/ },
    { name: 'zero watchers', args: ['--watchers', '0'], want: /bad --watchers 0/ },
    { name: 'too many watchers', args: ['--watchers', '10001'], want: /bad --watchers 10001/ },
    { name: 'startup runs not a number', args: ['--startup-runs', 'x'], want: /bad --startup-runs x/ },
    { name: '--json with --markdown', args: ['--json', '--markdown'], want: /--json and --markdown exclude each other/ },
    { name: 'unknown option', args: ['--fast'], want: /Unknown option '--fast'/ },
    { name: 'positional', args: ['etcd'], want: /Unexpected argument 'etcd'/ },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.throws(() => parseBenchArgs(c.args), c.want));
  }
});

test('BENCH_HELP names every option parseBenchArgs accepts', () => {
  for (const option of ['--phase', '--backend', '--kube-apiserver', '--concurrency', '--watchers', '--startup-runs', '--json',
    '--markdown', '--help']) {
    assert.match(BENCH_HELP, new RegExp(`^  ${option} `, 'm'), option);
  }
  for (const phase of ['startup', 'throughput', 'watchers', 'hostile', 'cel', 'apf', 'webhooks', 'cache', 'storage', 'all']) assert.match(BENCH_HELP, new RegExp(`^ {28}${phase} `, 'm'), phase);
});
