import { writeFileSync, readFileSync } from 'node:fs';
import { startOracle } from './src/e2e/testing/oracle.ts';
const o = await startOracle({ flags: ['--audit-policy-file=/tmp/mx/policy.yaml', '--audit-log-path=/tmp/mx/audit.log', '--audit-log-format=json'] });
try {
  const h = { 'content-type': 'application/json' };
  console.log((await o.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: h, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } }) })).status);
  console.log((await o.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/cm1' })).status);
  console.log((await o.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps/nope' })).status);
  console.log((await o.request({ method: 'POST', path: '/api/v1/namespaces/default/secrets', headers: h, body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { a: 'b' } }) })).status);
  console.log((await o.request({ method: 'GET', path: '/api/v1/pods?limit=1' })).status);
  console.log((await o.request({ method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/cm1' })).status);
  console.log((await o.request({ method: 'GET', path: '/version' })).status);
  console.log((await o.request({ method: 'GET', path: '/api/v1/namespaces', auth: false, headers: { authorization: 'Bearer bad' } })).status);
  const m = await o.request({ method: 'GET', path: '/metrics' });
  console.log(m.status, m.headers?.['content-type']);
  writeFileSync('/tmp/mx/oracle-metrics.txt', m.body.toString());
  const s = await o.request({ method: 'GET', path: '/metrics/slis' });
  writeFileSync('/tmp/mx/oracle-slis.txt', s.body.toString());
  await new Promise((r) => setTimeout(r, 2000));
} finally { await o.stop(); }
