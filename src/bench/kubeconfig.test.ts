import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { adminKubeconfig } from '../cli/kubeconfig.ts';
import { parseAdminKubeconfig } from './kubeconfig.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('parseAdminKubeconfig reads what kapi serve writes', () => {
  const text = stringify(adminKubeconfig({ server: 'https://127.0.0.1:6443', caCert: CA, token: 'abc' }));
  assert.deepEqual(parseAdminKubeconfig(text), { server: 'https://127.0.0.1:6443', ca: CA, token: 'abc' });
});

test('parseAdminKubeconfig names the missing field', async (t) => {
  const cases = [
    { name: 'no clusters', doc: { users: [{ user: { token: 't' } }] }, want: /clusters\[0\]\.cluster\.server/ },
    { name: 'no CA', doc: { clusters: [{ cluster: { server: 'https://x' } }], users: [{ user: { token: 't' } }] },
      want: /certificate-authority-data/ },
    { name: 'no token', doc: { clusters: [{ cluster: { server: 'https://x', 'certificate-authority-data': 'eA==' } }] },
      want: /users\[0\]\.user\.token/ },
  ];
  for (const c of cases) {
    await t.test(c.name, () => assert.throws(() => parseAdminKubeconfig(stringify(c.doc)), c.want));
  }
});
