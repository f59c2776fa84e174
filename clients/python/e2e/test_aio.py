"""The asyncio client (kubernetes.aio, on aiohttp): typed CRUD, server-side apply, watch and the
dynamic client."""
import logging
import unittest
from unittest import IsolatedAsyncioTestCase

from kubernetes.aio import client, config, watch
from kubernetes.aio.dynamic import DynamicClient

from kapi_e2e import KUBECONFIG, short_id

APPLY = 'application/apply-patch+yaml'

# IsolatedAsyncioTestCase runs its loop in debug mode, which logs every step slower than 0.1 s.
logging.getLogger('asyncio').setLevel(logging.ERROR)


class TestAsyncClient(IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.configuration = client.Configuration()
        await config.load_kube_config(config_file=KUBECONFIG, client_configuration=self.configuration)
        self.api = client.ApiClient(configuration=self.configuration)
        self.core = client.CoreV1Api(self.api)
        self.namespace = 'py-aio-' + short_id()
        await self.core.create_namespace({'metadata': {'name': self.namespace}})

    async def asyncTearDown(self):
        await self.core.delete_namespace(self.namespace)
        await self.api.close()

    async def test_deployment_crud(self):
        ns = self.namespace
        apps = client.AppsV1Api(self.api)
        name = 'aio-' + short_id()
        labels = {'app': name}
        await apps.create_namespaced_deployment(ns, {
            'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': name},
            'spec': {'replicas': 2, 'selector': {'matchLabels': labels},
                     'template': {'metadata': {'labels': labels}, 'spec': {'containers': [{'name': 'c', 'image': 'nginx'}]}}}})
        read = await apps.read_namespaced_deployment(name, ns)
        self.assertEqual(read.spec.replicas, 2)
        await apps.delete_namespaced_deployment(name, ns, body=client.V1DeleteOptions())
        with self.assertRaises(client.ApiException) as caught:
            await apps.read_namespaced_deployment(name, ns)
        self.assertEqual(caught.exception.status, 404)

    async def test_apply_then_strategic_patch(self):
        ns = self.namespace
        name = 'aio-cm-' + short_id()
        manifest = {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': name, 'namespace': ns}, 'data': {'hello': 'world'}}
        applied = await self.core.patch_namespaced_config_map(name, ns, manifest, field_manager='aio', _content_type=APPLY)
        self.assertEqual(applied.data, {'hello': 'world'})
        cm = await self.core.read_namespaced_config_map(name, ns)
        cm.data['new'] = 'value'
        patched = await self.core.patch_namespaced_config_map(name, ns, cm, field_manager='aio')
        self.assertEqual(patched.data, {'hello': 'world', 'new': 'value'})

    async def test_watch(self):
        ns = self.namespace
        name = 'aio-w-' + short_id()
        await self.core.create_namespaced_config_map(ns, {'metadata': {'name': name, 'labels': {'w': 'aio'}}})
        w = watch.Watch()
        seen = []
        async with w:
            async for event in w.stream(self.core.list_namespaced_config_map, ns, label_selector='w=aio', timeout_seconds=1):
                seen.append((event['type'], event['object'].metadata.name))
        self.assertEqual(seen, [('ADDED', name)])

    async def test_dynamic_client(self):
        ns = self.namespace
        dyn = await DynamicClient(self.api)
        cms = await dyn.resources.get(api_version='v1', kind='ConfigMap')
        await dyn.create(cms, namespace=ns, body={'metadata': {'name': 'dyn-aio'}, 'data': {'a': '1'}})
        listed = await dyn.get(cms, namespace=ns)
        self.assertIn('dyn-aio', [i.metadata.name for i in listed.items])
        await dyn.delete(cms, namespace=ns, name='dyn-aio')


if __name__ == '__main__':
    unittest.main()
