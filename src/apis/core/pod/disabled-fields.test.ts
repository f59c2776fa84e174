import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from '../v1/types.ts';
import { dropDisabledPodSpecFields } from './disabled-fields.ts';

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
