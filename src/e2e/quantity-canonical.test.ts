// Quantities come back as kube-apiserver v1.36 stores them: the client's text when ParseQuantity
// finds it canonical already, Quantity.String() otherwise, and core/v1 ResourceList values rounded
// up to milli-units (SetDefaults_ResourceList). The expected texts were recorded from the oracle
// (a LimitRange item of a custom type, whose values kube does not otherwise check).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSuite, type Suite } from './testing/suite.ts';
import { post } from './testing/validation-differential.ts';

const KUBE: readonly (readonly [string | number, string])[] = [
  ['-1', '-1'], ['-0.5', '-500m'], ['-1024Mi', '-1Gi'], ['8Ki', '8Ki'], ['7Ki', '7Ki'], ['1Mi', '1Mi'], ['1.5Gi', '1536Mi'], ['100m', '100m'],
  ['1500m', '1500m'], ['10000m', '10'], ['0.001', '1m'], ['1000u', '1m'], ['1e0', '1e0'], ['1e1', '10'], ['1e2', '100'], ['10e3', '10e3'],
  ['1000e3', '1e6'], ['1.5e3', '1500'], ['1E3', '1E3'], ['2e-3', '2e-3'], ['1k', '1k'], ['0.5', '500m'], ['1.5', '1500m'], ['1000m', '1'],
  ['2000', '2k'], ['1024Mi', '1Gi'], ['1536', '1536'], ['1.5Ki', '1536'], ['0.5Ki', '512'], ['1e3', '1e3'], ['12e2', '1200'], ['0.1Ki', '102400m'],
  ['1E', '1E'], ['1Ei', '1Ei'], ['123456789012345678901', '123456789012345678901'], ['0.000000001', '1m'], ['0.0000000001', '1m'], ['1n', '1m'],
  ['1u', '1m'], ['100k', '100k'], ['1000k', '1M'], ['1000000', '1M'], ['1M', '1M'], ['1Gi', '1Gi'], ['1G', '1G'], ['+1', '+1'], ['-0', '0'],
  ['01', '01'], ['1.', '1.'], ['.5', '500m'], ['5e-1', '500e-3'], ['1e-9', '1e-3'], ['1e-10', '1e-3'], ['2e18', '2e18'], ['1e19', '10e18'],
  ['0.1', '100m'], [3, '3'], [1.5, '1500m'], ['1023', '1023'], ['1025', '1025'], ['1048576', '1048576'], ['1.0Gi', '1Gi'], ['0.5Gi', '512Mi'],
];

describe('quantities are stored as kube-apiserver v1.36 stores them', () => {
  let suite: Suite;
  before(async () => {
    suite = await startSuite({ flags: [] });
  });
  after(async () => { await suite?.close(); });

  it('every input comes back as kube returned it', async () => {
    const max = Object.fromEntries(KUBE.map(([q], i) => [`example.com/r${i}`, q]));
    const r = await suite.request(post('/api/v1/namespaces/default/limitranges', { metadata: { name: 'quantities' }, spec: { limits: [{ type: 'example.com/t', max }] } }));
    assert.equal(r.status, 201, r.text);
    const got = (r.json() as { spec: { limits: { max: Record<string, string> }[] } }).spec.limits[0]?.max ?? {};
    assert.deepEqual(KUBE.map(([q], i) => [q, got[`example.com/r${i}`]]), KUBE.map(([q, want]) => [q, want]));
    const stored = await suite.request({ method: 'GET', path: '/api/v1/namespaces/default/limitranges/quantities' });
    assert.deepEqual((stored.json() as { spec: { limits: { max: Record<string, string> }[] } }).spec.limits[0]?.max, got);
  });

  it('a pod container resources come back canonical and rounded up to milli-units', async () => {
    await suite.request(post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } }));
    const r = await suite.request(post('/api/v1/namespaces/default/pods?dryRun=All', { metadata: { name: 'q' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '0.5', memory: '1n' }, limits: { cpu: '1000m', memory: '1024Mi' } } }] } }));
    assert.equal(r.status, 201, r.text);
    const res = (r.json() as { spec: { containers: { resources: unknown }[] } }).spec.containers[0]?.resources;
    assert.deepEqual(res, { requests: { cpu: '500m', memory: '1m' }, limits: { cpu: '1', memory: '1Gi' } });
  });
});
