import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { Scheme } from '../apimachinery/runtime/scheme.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { openSqliteBackend } from '../storage/sqlite/sqlite-backend.ts';
import { coreDefinitions } from './core-definitions.ts';
import { buildGroupREST } from './group-rest.ts';
import { ResourceQuotaController } from './resource-quota-controller.ts';

const dir = mkdtempSync(join(tmpdir(), 'kapi-quota-controller-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Quota extends KubeObject { status?: { hard?: Record<string, string>; used?: Record<string, string> } }

describe('resource quota controller', () => {
  it('mirrors hard, counts usage, and recounts when objects go or pods end', async () => {
    const backend = await openSqliteBackend({ path: join(dir, 'q.db'), compactionIntervalMs: 0 });
    const core = await coreDefinitions({ serviceClusterIPRange: { text: '10.0.0.0/24' }, serviceNodePortRange: { base: 30000, size: 2768 },
      eventTTLSeconds: 3600 }, backend, '/registry');
    const rest = buildGroupREST(new Scheme(), backend, '/registry', core, () => true, () => undefined);
    const store = (r: string): ResourceStore<KubeObject> => {
      const s = rest.stores.get(r);
      assert.ok(s !== undefined, r);
      return s;
    };
    const ctx = systemContext('ns');
    const create = (r: string, obj: object): Promise<KubeObject> => store(r).create(ctx, obj as KubeObject, undefined, { dryRun: false });
    const controller = new ResourceQuotaController({
      quotas: store('resourcequotas'), followed: [store('pods'), store('configmaps'), store('resourcequotas')],
      storeFor: (gr) => (gr.group === '' ? rest.stores.get(gr.resource) : undefined),
    });
    const status = async (): Promise<Quota['status']> => ((await store('resourcequotas').get(ctx, 'q', {})) as Quota).status;
    const waitFor = async (want: Quota['status']): Promise<void> => {
      let last: Quota['status'];
      for (let i = 0; i < 100; i++) {
        last = await status();
        if (JSON.stringify(last) === JSON.stringify(want)) return;
        await sleep(20);
      }
      assert.deepEqual(last, want);
    };
    try {
      await create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } });
      const pod = (name: string): object => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
        spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Always',
          terminationMessagePolicy: 'File', resources: { requests: { cpu: '250m', memory: '1Gi' } } }] } });
      await create('pods', pod('p1'));
      await create('pods', pod('p2'));
      await controller.start();
      const hard = { 'count/configmaps': '5', memory: '4Gi', pods: '10', 'requests.cpu': '2' };
      await create('resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns' }, spec: { hard } });
      await waitFor({ hard, used: { 'count/configmaps': '1', memory: '2Gi', pods: '2', 'requests.cpu': '500m' } });

      await store('configmaps').delete(ctx, 'a', undefined, {});
      await store('pods').delete(ctx, 'p1', undefined, { gracePeriodSeconds: 0 });
      await waitFor({ hard, used: { 'count/configmaps': '0', memory: '1Gi', pods: '1', 'requests.cpu': '250m' } });

      await store('pods').updateUnchecked(ctx, 'p2', (cur) => ({ ...cur, status: { phase: 'Succeeded' } } as KubeObject), { dryRun: false });
      await waitFor({ hard, used: { 'count/configmaps': '0', memory: '0', pods: '0', 'requests.cpu': '0' } });
    } finally {
      controller.stop();
      await backend.close();
    }
  });
});
