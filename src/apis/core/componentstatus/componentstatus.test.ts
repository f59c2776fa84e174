import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import { componentStatusTable, newComponentStatusREST, type ComponentStatus } from './componentstatus.ts';

describe('componentstatuses', () => {
  const rest = newComponentStatusREST({ components: {
    'etcd-0': () => Promise.resolve('ok'), broken: () => Promise.reject(new Error('down')),
    refused: () => Promise.resolve({ unhealthy: 'connection refused' }), moved: () => Promise.resolve({ unknown: 'redirected' }),
  } });
  it('lists every component with its Healthy condition', async () => {
    const list = await rest.list(systemContext(), {});
    assert.deepEqual(list.items.map((i) => (i as unknown as ComponentStatus).conditions), [
      [{ type: 'Healthy', status: 'False', error: 'down' }],
      [{ type: 'Healthy', status: 'True', message: 'ok' }],
      [{ type: 'Healthy', status: 'Unknown', message: 'redirected' }],
      // A failed HTTP probe is a message, not an error, as kube's prober reports it.
      [{ type: 'Healthy', status: 'False', message: 'connection refused' }],
    ]);
  });
  it('prints NAME STATUS MESSAGE ERROR', async () => {
    const cs = await rest.get(systemContext(), 'etcd-0', {}) as unknown as ComponentStatus;
    assert.deepEqual(componentStatusTable.map((c) => c.cell(cs, 0)), ['etcd-0', 'Healthy', 'ok', '']);
  });
  it('an unknown component is kube\'s plain error', async () => {
    await assert.rejects(rest.get(systemContext(), 'nope', {}), (e: unknown) => e instanceof StatusError && e.status.code === 500 && e.status.message === 'Component not found: nope');
  });
});
