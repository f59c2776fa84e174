import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configMapBody, resourceVersionOf } from './phases.ts';
import { baselineRoutes, kapiRoutes, newResponseSizes } from './routes.ts';
import { eventObjectName } from './watch-client.ts';

test('configMapBody carries ~1 KiB of data that changes with the generation', () => {
  const a = JSON.parse(configMapBody('ns', 'cm-1', 1)) as { metadata: Record<string, unknown>; data: { payload: string } };
  const b = JSON.parse(configMapBody('ns', 'cm-1', 2, '42')) as { metadata: Record<string, unknown>; data: { payload: string } };
  assert.equal(a.data.payload.length, 1024);
  assert.notEqual(a.data.payload, b.data.payload);
  assert.deepEqual(a.metadata, { name: 'cm-1', namespace: 'ns' });
  assert.deepEqual(b.metadata, { name: 'cm-1', namespace: 'ns', resourceVersion: '42' });
});

test('resourceVersionOf', async (t) => {
  const cases = [
    { name: 'object', body: '{"metadata":{"resourceVersion":"7"}}', want: '7' },
    { name: 'baseline padding', body: '{"pad":"xx"}', want: undefined },
    { name: 'non-string', body: '{"metadata":{"resourceVersion":7}}', want: undefined },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(resourceVersionOf(Buffer.from(c.body)), c.want));
  }
});

test('eventObjectName', async (t) => {
  const cases = [
    { name: 'watch event', event: { type: 'ADDED', object: { metadata: { name: 'a' } } }, want: 'a' },
    { name: 'no object', event: { type: 'ERROR' }, want: undefined },
    { name: 'not an object', event: 'x', want: undefined },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.equal(eventObjectName(c.event), c.want));
  }
});

test('routes', () => {
  assert.equal(kapiRoutes.get('default', 'cm-1'), '/api/v1/namespaces/default/configmaps/cm-1');
  assert.equal(kapiRoutes.watch('w'), '/api/v1/namespaces/w/configmaps?watch=1');
  assert.equal(kapiRoutes.watch('w', '42'), '/api/v1/namespaces/w/configmaps?watch=1&resourceVersion=42');
  const sizes = newResponseSizes();
  const b = baselineRoutes(sizes);
  sizes.get = 1500;
  sizes.create = 1400;
  sizes.watchEvent = 1600;
  sizes.list.set('big', 12_000_000);
  assert.equal(b.get('default', 'cm-1'), '/bytes/1500', 'sizes are read when the path is built');
  assert.equal(b.list('big'), '/bytes/12000000');
  assert.equal(b.watchWrite('w', 'watch-1'), '/poke/watch-1/1600/1400');
  assert.equal(b.watch('w', '42'), '/watch', 'the bare server has no resourceVersions');
});
