// Both policy plugins before their informers' first list: every request waits for it, then is
// refused with kube's 403 (generic/plugin.go Dispatch after Handler.WaitForReady); once synced
// with no binding, the chain skips them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Watch, WatchEvent } from '../../apimachinery/watch/event.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import { SharedInformer } from '../../client/cache/shared-informer.ts';
import type { Attributes, Plugin } from '../interfaces.ts';
import { assertStatus, attrs } from '../testing/attributes.ts';
import { validatingAdmissionPolicy } from './validating/plugin.ts';
import { mutatingAdmissionPolicy } from './mutating/plugin.ts';

/** A list that resolves when `release` is called; a watch that never delivers. */
function gatedListWatcher(): { lw: ListWatcher; release: () => void } {
  let release = (): void => undefined;
  const gate = new Promise<void>((r) => { release = r; });
  const idle: Watch = {
    stop() { /* nothing to free */ },
    [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<WatchEvent>>(() => undefined) }),
  };
  return {
    lw: {
      list: async (): Promise<KubeList> => { await gate; return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '1' }, items: [] }; },
      watch: async () => idle,
    },
    release: () => { release(); },
  };
}

type Build = (opts: Parameters<typeof validatingAdmissionPolicy>[0]) => Plugin;
const PLUGINS: { name: string; build: Build; run: (p: Plugin, a: Attributes) => Promise<void> | undefined }[] = [
  { name: 'ValidatingAdmissionPolicy', build: validatingAdmissionPolicy, run: (p, a) => p.validate?.(systemContext('ns'), a) },
  { name: 'MutatingAdmissionPolicy', build: mutatingAdmissionPolicy, run: (p, a) => p.admit?.(systemContext('ns'), a) },
];

const cm = (metadata: KubeObject['metadata']): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', ...metadata } });

describe('policy plugins before their informers synced', () => {
  for (const p of PLUGINS) {
    const cases: { name: string; obj: KubeObject; want: string }[] = [
      { name: 'named object', obj: cm({ name: 'c' }), want: 'configmaps "c" is forbidden: not yet ready to handle request' },
      { name: 'generateName', obj: cm({ generateName: 'gen-' }), want: 'configmaps "gen-" is forbidden: not yet ready to handle request' },
      { name: 'no name', obj: cm({}), want: 'configmaps "Unknown" is forbidden: not yet ready to handle request' },
    ];
    for (const c of cases) {
      it(`${p.name}: ${c.name} refused with 403`, async () => {
        const pol = gatedListWatcher();
        const bind = gatedListWatcher();
        const policies = new SharedInformer(pol.lw);
        const bindings = new SharedInformer(bind.lw);
        void policies.start();
        void bindings.start();
        const plugin = p.build({ policies, bindings, params: () => undefined, getNamespace: async () => undefined,
          authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) }, readyTimeoutMs: 120 });
        assert.equal(plugin.handles('CREATE'), true);
        await assertStatus(p.run(plugin, attrs(c.obj, { resource: 'configmaps', kind: 'ConfigMap' })), 403, 'Forbidden', c.want);
        pol.release();
        bind.release();
        await Promise.all([policies.start(), bindings.start()]);
        assert.equal(plugin.handles('CREATE'), false);
        await p.run(plugin, attrs(c.obj, { resource: 'configmaps', kind: 'ConfigMap' }));
        policies.stop();
        bindings.stop();
      });
    }
    it(`${p.name}: a request waiting for the first sync goes on once it comes`, async () => {
      const pol = gatedListWatcher();
      const bind = gatedListWatcher();
      const policies = new SharedInformer(pol.lw);
      const bindings = new SharedInformer(bind.lw);
      void policies.start();
      void bindings.start();
      const plugin = p.build({ policies, bindings, params: () => undefined, getNamespace: async () => undefined,
        authorizer: { authorize: () => ({ decision: 'allow', reason: '' }) } });
      const pending = p.run(plugin, attrs(cm({ name: 'c' }), { resource: 'configmaps', kind: 'ConfigMap' }));
      pol.release();
      bind.release();
      await pending;
      policies.stop();
      bindings.stop();
    });
  }
});
