import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ETCD_MISSING, etcdArgs, startBenchEtcd } from './etcd.ts';

async function health(endpoint: string): Promise<unknown> {
  try {
    const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(2000) });
    return ((await res.json()) as { health?: unknown }).health;
  } catch {
    return 'unreachable';
  }
}

test('etcdArgs: a new single-member cluster on the given URLs', () => {
  const args = etcdArgs('m', '/d', 'http://127.0.0.1:1', 'http://127.0.0.1:2');
  const flag = (name: string): string | undefined => args[args.indexOf(name) + 1];
  assert.equal(flag('--data-dir'), '/d');
  assert.equal(flag('--listen-client-urls'), 'http://127.0.0.1:1');
  assert.equal(flag('--initial-cluster'), 'm=http://127.0.0.1:2');
  assert.equal(flag('--initial-cluster-state'), 'new');
});

test('startBenchEtcd runs a healthy etcd until stop', async () => {
  const etcd = await startBenchEtcd();
  try {
    assert.match(etcd.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await health(etcd.endpoint), 'true');
  } finally {
    await etcd.stop();
  }
  assert.equal(await health(etcd.endpoint), 'unreachable');
  await etcd.stop(); // idempotent
});

test('startBenchEtcd says how to get etcd when it is not installed', async () => {
  const path = process.env['PATH'];
  process.env['PATH'] = '/nonexistent';
  try {
    await assert.rejects(startBenchEtcd(), (err: unknown) => err instanceof Error && err.message === ETCD_MISSING);
  } finally {
    if (path === undefined) delete process.env['PATH'];
    else process.env['PATH'] = path;
  }
});
