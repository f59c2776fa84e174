import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec, PodTemplateSpec } from '../v1/types.ts';
import { dropDisabledPodSpecFields, dropDisabledTemplateFields } from './disabled-fields.ts';

const ctb = { clusterTrustBundle: { name: 'b', path: 'p' } };
const cert = { podCertificate: { signerName: 'example.com/s', keyType: 'ED25519', credentialBundlePath: 'c' } };
const spec = (...sources: Record<string, unknown>[]): PodSpec => ({ containers: [], volumes: [{ name: 'v', projected: { sources } }] });

describe('dropDisabledPodSpecFields', () => {
  const cases: { name: string; next: PodSpec; old?: PodSpec; want: Record<string, unknown>[] }[] = [
    { name: 'create drops both gated sources', next: spec(ctb, cert, { configMap: { name: 'a' } }), want: [{}, {}, { configMap: { name: 'a' } }] },
    { name: 'update keeps clusterTrustBundle the old spec used', next: spec(ctb, cert), old: spec(ctb), want: [ctb, {}] },
    { name: 'update keeps podCertificate the old spec used', next: spec(ctb, cert), old: spec(cert), want: [{}, cert] },
    { name: 'update drops what the old spec did not use', next: spec(ctb), old: spec({ configMap: { name: 'a' } }), want: [{}] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const next = structuredClone(c.next);
      dropDisabledPodSpecFields(next, c.old);
      assert.deepEqual(next.volumes?.[0]?.projected?.sources, c.want);
    });
  }
});

describe('dropDisabledPodSpecFields: the other gates off in v1.36', () => {
  const withLifecycle = (lifecycle: Record<string, unknown>): PodSpec => ({ containers: [{ name: 'c', lifecycle }] });
  const cases: { name: string; next: PodSpec; old?: PodSpec; want: unknown }[] = [
    { name: 'schedulingGroup (GenericWorkload) dropped', next: { containers: [], schedulingGroup: { podGroupName: 'g' } } as PodSpec, want: { containers: [] } },
    { name: 'schedulingGroup kept when the old spec had it', next: { containers: [], schedulingGroup: { podGroupName: 'g' } } as PodSpec,
      old: { containers: [], schedulingGroup: { podGroupName: 'g' } } as PodSpec, want: { containers: [], schedulingGroup: { podGroupName: 'g' } } },
    { name: 'stopSignal (ContainerStopSignals) dropped with the lifecycle it empties', next: withLifecycle({ stopSignal: 'SIGTERM' }),
      want: { containers: [{ name: 'c' }] } },
    { name: 'stopSignal dropped, the rest of the lifecycle kept', next: withLifecycle({ stopSignal: 'SIGTERM', preStop: { sleep: { seconds: 1 } } }),
      want: { containers: [{ name: 'c', lifecycle: { preStop: { sleep: { seconds: 1 } } } }] } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const next = structuredClone(c.next);
      dropDisabledPodSpecFields(next, c.old);
      assert.deepEqual(next, c.want);
    });
  }
});

describe('dropDisabledTemplateFields', () => {
  it('drops from the template spec, keeping what the old template used', () => {
    const t: PodTemplateSpec = { metadata: {}, spec: spec(ctb, cert) };
    dropDisabledTemplateFields(t, { spec: spec(cert) });
    assert.deepEqual(t.spec.volumes?.[0]?.projected?.sources, [{}, cert]);
  });
  it('an absent template is left alone', () => { dropDisabledTemplateFields(undefined, undefined); });
});
