import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import { systemContext } from '../../../apimachinery/request/context.ts';
import { minimalPod, newFixture, subresourceContext, type Fixture } from '../pod/subresources/testing.ts';
import type { Pod } from '../v1/types.ts';
import { bindings, newBindingREST } from './binding.ts';

const binding = (name: string, node: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Binding', metadata: { name, ...extra }, target: { kind: 'Node', name: node } }) as unknown as KubeObject;

async function rejects(p: Promise<unknown>, code: number, message: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.code, code);
    assert.equal(err.status.message, message);
    return true;
  });
}

describe('pods/binding', () => {
  let f: Fixture;
  before(async () => {
    f = await newFixture();
    const ctx = systemContext('default');
    for (const n of ['a', 'b', 'gated']) {
      await f.store('pods').create(ctx, minimalPod(n, n === 'gated' ? { schedulingGates: [{ name: 'wait' }] } : {}), undefined, { dryRun: false });
    }
  });
  after(async () => { await f.backend.close(); });

  it('binds an unbound pod, marks it scheduled and answers Success 201', async () => {
    const rest = newBindingREST(f.store('pods'));
    const out = await rest.create(subresourceContext('default', 'pods', 'a', 'binding'), binding('a', 'node-1', { annotations: { x: 'y' } }), undefined, { dryRun: false });
    assert.deepEqual(out, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const pod = await f.store('pods').get(systemContext('default'), 'a', {}) as unknown as Pod;
    assert.equal(pod.spec.nodeName, 'node-1');
    assert.equal(pod.metadata.annotations?.['x'], 'y');
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
  });

  const cases = [
    { name: 'already bound', pod: 'a', body: binding('a', 'node-2'), code: 409,
      message: 'Operation cannot be fulfilled on pods/binding "a": pod a is already assigned to node "node-1"' },
    { name: 'scheduling gates', pod: 'gated', body: binding('gated', 'node-1'), code: 409,
      message: 'Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates' },
    { name: 'name mismatch', pod: 'b', body: binding('other', 'node-1'), code: 400, message: 'name in URL does not match name in Binding object' },
    { name: 'target kind', pod: 'b', body: { ...binding('b', 'n'), target: { kind: 'Pod', name: 'n' } } as KubeObject, code: 500,
      message: 'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"' },
    { name: 'missing pod', pod: 'zzz', body: binding('zzz', 'n'), code: 404, message: 'pods "zzz" not found' },
    { name: 'uid precondition', pod: 'b', body: binding('b', 'n', { uid: 'nope' }), code: 409,
      message: 'Operation cannot be fulfilled on pods "b": Precondition failed: UID in precondition: nope, UID in object meta: ' },
  ];
  for (const c of cases) {
    it(`rejects: ${c.name}`, async () => {
      const rest = newBindingREST(f.store('pods'));
      const p = rest.create(subresourceContext('default', 'pods', c.pod, 'binding'), c.body, undefined, { dryRun: false });
      if (c.name === 'uid precondition') {
        await assert.rejects(p, (err: unknown) => err instanceof StatusError && err.status.code === 409 && (err.status.message ?? '').startsWith(c.message));
      } else await rejects(p, c.code, c.message);
    });
  }

  it('the legacy bindings collection binds the pod the Binding names', async () => {
    const rest = bindings.storage(f.lookup) as ReturnType<typeof newBindingREST>;
    await rest.create(subresourceContext('default', 'bindings', '', ''), binding('b', 'node-3'), undefined, { dryRun: false });
    const pod = await f.store('pods').get(systemContext('default'), 'b', {}) as unknown as Pod;
    assert.equal(pod.spec.nodeName, 'node-3');
  });
});
