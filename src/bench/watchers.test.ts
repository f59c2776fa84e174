import { test } from 'node:test';
import assert from 'node:assert/strict';
import { watcherStats } from './watchers-phase.ts';
import { eventName } from './watchers.ts';

test('eventName', async (t) => {
  const cases = [
    { name: 'kube-apiserver field order', line: '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"w0-1","namespace":"n"}}}', want: 'w0-1' },
    { name: 'other field order: full parse', line: '{"type":"ADDED","object":{"metadata":{"namespace":"n","name":"w0-2"}}}', want: 'w0-2' },
    { name: 'escaped name: full parse', line: '{"type":"ADDED","object":{"metadata":{"name":"a\\"b"}}}', want: 'a"b' },
    { name: 'error event', line: '{"type":"ERROR","object":{"kind":"Status","code":410}}', want: undefined },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(eventName(c.line), c.want));
  }
});

test('watcherStats: nearest-rank percentiles of every delivery, creates over the elapsed time', () => {
  const latencies = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.deepEqual(watcherStats({ latencies, creates: 50, ms: 2000, dropped: 0 }), { p50: 50.5, p99: 99, rate: 25 });
});
