import { startOracle } from '../src/e2e/testing/oracle.ts';
import { setTimeout as sleep } from 'node:timers/promises';
const o = await startOracle();
try {
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.probe.example.com' },
    spec: { group: 'probe.example.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', message: 'root' }],
        properties: { spec: { type: 'object', properties: { a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', messageExpression: "'x'", reason: 'FieldValueForbidden', fieldPath: '' }] } } } } } } }] } };
  const r = await o.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(crd), contentType: 'application/json' });
  console.log('create', r.status, r.text.slice(0, 300));
  await sleep(4000);
  const v3 = await o.request({ method: 'GET', path: '/openapi/v3/apis/probe.example.com/v1', headers: { Accept: 'application/json' } }); console.log(v3.status, v3.text.slice(0,200));
  const d = (v3.json() as any).components.schemas['com.example.probe.v1.Thing'];
  console.log('v3', JSON.stringify(d));
  const v2 = await o.request({ method: 'GET', path: '/openapi/v2' });
  const d2 = (v2.json() as any).definitions['com.example.probe.v1.Thing'];
  console.log('v2', JSON.stringify(d2));
} finally { await o.stop(); }
