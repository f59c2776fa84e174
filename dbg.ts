import { startOracle } from './src/e2e/testing/oracle.ts';
import { openEtcdBackend } from './src/storage/etcd3/etcd3-backend.ts';
const oracle = await startOracle();
try {
  const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.interop.example.com' },
    spec: { group: 'interop.example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } }, subresources: { status: {} }, additionalPrinterColumns: [{ name: 'S', type: 'string', jsonPath: '.spec.s' }] }, { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } }], conversion: { strategy: 'None' } } };
  const r = await oracle.request({ method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: JSON.stringify(CRD) });
  console.log(r.status);
  const be = await openEtcdBackend({ endpoints: [oracle.etcd.endpoint] });
  const kv = (await be.range('/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.interop.example.com')).kvs[0]!;
  console.log(kv.value);
  const a = (await be.range('/registry/apiregistration.k8s.io/apiservices/v1.', {prefix: true})).kvs[0]!;
  console.log(JSON.stringify(a.value.slice(0, 80)));
  await be.close();
} finally { await oracle.stop(); }
