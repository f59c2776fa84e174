import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation } from '../interfaces.ts';
import { limitRanger, LIMIT_RANGER_ANNOTATION, type LimitRange, type LimitRangeItem } from './limit-ranger.ts';
import { canonical, toQ } from './limit-ranger-quantity.ts';

const ctx = systemContext('ns');
const lr = (...limits: LimitRangeItem[]): LimitRange => ({ metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } });
type Obj = KubeObject & { spec: Record<string, unknown> };
const pod = (containers: Record<string, unknown>[], extra: Record<string, unknown> = {}): Obj =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers, ...extra } });
const claim = (storage?: string): Obj => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'ns' },
  spec: { resources: storage === undefined ? {} : { requests: { storage } } } });
const attrs = (obj: KubeObject, operation: Operation = 'CREATE', old?: KubeObject): Attributes => {
  const kind = obj.kind ?? '';
  const resource = kind === 'Pod' ? 'pods' : 'persistentvolumeclaims';
  return { operation, kind: { group: '', version: 'v1', kind }, resource: { group: '', version: 'v1', resource },
    subresource: '', name: obj.metadata.name ?? '', namespace: 'ns', object: obj, oldObject: old, dryRun: false };
};
/** admit then validate, as the chain runs them; the Status message on refusal, undefined when admitted. */
async function run(ranges: LimitRange[], a: Attributes): Promise<string | undefined> {
  const plugin = limitRanger(async () => ranges);
  try {
    await plugin.admit?.(ctx, a);
    await plugin.validate?.(ctx, a);
    return undefined;
  } catch (err) {
    const st = (err as { status: { code: number; reason: string; message: string } }).status;
    assert.deepEqual([st.code, st.reason], [403, 'Forbidden']);
    return st.message;
  }
}

describe('LimitRanger admission', () => {
  const container = lr({ type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m' },
    default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '200m', memory: '256Mi' } });

  it('fills missing requests and limits from the defaults and says so in an annotation', async () => {
    const p = pod([{ name: 'app', resources: { limits: { cpu: '800m' } } }], { initContainers: [{ name: 'init' }] });
    assert.equal(await run([container], attrs(p)), undefined);
    const [app] = p.spec['containers'] as { resources: unknown }[];
    assert.deepEqual(app?.resources, { limits: { cpu: '800m', memory: '512Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    assert.equal(p.metadata.annotations?.[LIMIT_RANGER_ANNOTATION], 'LimitRanger plugin set: cpu, memory request for container app; ' +
      'memory limit for container app; cpu, memory request for init container init; cpu, memory limit for init container init');
  });

  it('refuses a container over its max with kube\'s message', async () => {
    const p = pod([{ name: 'app', resources: { limits: { cpu: '2' }, requests: { cpu: '1500m' } } }]);
    // One message per resource and bound: the limit is checked first; a single error has no brackets.
    assert.equal(await run([container], attrs(p)), 'pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    const req = pod([{ name: 'app', resources: { limits: { cpu: '1' }, requests: { cpu: '1500m' } } }]);
    assert.equal(await run([container], attrs(req)), 'pods "p" is forbidden: maximum cpu usage per Container is 1, but request is 1500m');
  });

  it('aggregates several violations in brackets', async () => {
    const p = pod([{ name: 'a', resources: { limits: { cpu: '2', memory: '2Gi' }, requests: { cpu: '50m' } } }]);
    assert.equal(await run([container], attrs(p)), 'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, ' +
      'maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]');
  });

  it('checks min without a request, max without a limit, and the limit/request ratio', async () => {
    const bare = lr({ type: 'Container', min: { cpu: '100m' }, max: { memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } });
    assert.equal(await run([bare], attrs(pod([{ name: 'a' }]))), 'pods "p" is forbidden: [minimum cpu usage per Container is 100m.  ' +
      'No request is specified, maximum memory usage per Container is 1Gi.  No limit is specified, cpu max limit to request ratio per ' +
      'Container is 2, but no request is specified or request is 0]');
    const ratio = lr({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } });
    assert.equal(await run([ratio], attrs(pod([{ name: 'a', resources: { requests: { cpu: '100m' }, limits: { cpu: '300m' } } }]))),
      'pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000');
    assert.equal(await run([ratio], attrs(pod([{ name: 'a', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }]))), undefined);
  });

  it('sums containers for a Pod item and takes the max of init containers', async () => {
    const podMax = lr({ type: 'Pod', max: { cpu: '1' } });
    const two = pod([{ name: 'a', resources: { limits: { cpu: '600m' } } }, { name: 'b', resources: { limits: { cpu: '600m' } } }]);
    assert.equal(await run([podMax], attrs(two)), 'pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m');
    const init = pod([{ name: 'a', resources: { limits: { cpu: '600m' } } }], { initContainers: [{ name: 'i', resources: { limits: { cpu: '900m' } } }] });
    assert.equal(await run([podMax], attrs(init)), undefined);
    const sidecar = pod([{ name: 'a', resources: { limits: { cpu: '600m' } } }],
      { initContainers: [{ name: 's', restartPolicy: 'Always', resources: { limits: { cpu: '500m' } } }] });
    assert.equal(await run([podMax], attrs(sidecar)), 'pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1100m');
  });

  it('checks the storage a claim requests, on create and update', async () => {
    const storage = lr({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } });
    assert.equal(await run([storage], attrs(claim('5Gi'))), undefined);
    assert.equal(await run([storage], attrs(claim('20Gi'), 'UPDATE', claim('5Gi'))),
      'persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
    assert.equal(await run([storage], attrs(claim('500Mi'))),
      'persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
    assert.equal(await run([storage], attrs(claim())), 'persistentvolumeclaims "c" is forbidden: [minimum storage usage per ' +
      'PersistentVolumeClaim is 1Gi.  No request is specified, maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified]');
  });

  it('leaves pod updates, subresources, objects being deleted and other kinds alone', async () => {
    const over = pod([{ name: 'a', resources: { limits: { cpu: '5' } } }]);
    assert.equal(await run([container], attrs(over, 'UPDATE', over)), undefined);
    assert.equal(await run([container], { ...attrs(over), subresource: 'status' }), undefined);
    const gone = claim('20Gi');
    gone.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    const storage = lr({ type: 'PersistentVolumeClaim', max: { storage: '10Gi' } });
    assert.equal(await run([storage], attrs(claim('20Gi'), 'UPDATE', gone)), undefined);
    assert.equal(over.metadata.annotations, undefined);
  });

  it('names the object by generateName when it has no name yet', async () => {
    const p = pod([{ name: 'a', resources: { limits: { cpu: '5' } } }]);
    p.metadata = { generateName: 'web-', namespace: 'ns' };
    assert.equal(await run([container], { ...attrs(p), name: '' }), 'pods "web-" is forbidden: maximum cpu usage per Container is 1, but limit is 5');
  });
});

describe('Quantity.String() as LimitRanger prints it', () => {
  const cases = [
    { name: 'whole cores', in: '2', want: '2' }, { name: 'millicores', in: '1500m', want: '1500m' },
    { name: 'a fraction', in: '0.5', want: '500m' }, { name: 'milli of a whole', in: '1000m', want: '1' },
    { name: 'binary', in: '1Gi', want: '1Gi' }, { name: 'binary in a smaller unit', in: '1024Mi', want: '1Gi' },
    { name: 'decimal thousands', in: '2000', want: '2k' }, { name: 'small binary', in: '1000Ki', want: '1000Ki' },
    // ParseQuantity's own grammar and limits, which a float parser missed
    { name: 'a canonical exponent kept as written', in: '1E3', want: '1E3' },
    { name: 'binary capped at math.MaxInt64', in: '2048Ei', want: '9223372036854775807' },
    { name: 'a lone dot is zero', in: '.', want: '0' },
    { name: 'beyond float precision', in: '12345678901234567891', want: '12345678901234567891' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const q = toQ(c.in);
      assert.ok(q !== undefined);
      assert.equal(canonical(q), c.want);
    });
  }
});
