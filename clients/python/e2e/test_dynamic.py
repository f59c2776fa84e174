"""The dynamic client on a CustomResourceDefinition of its own: discovery of the new kind, CRUD,
patches, the status and scale subresources, server-side apply, schema validation, watch, and
PartialObjectMetadata lists."""
from kubernetes import client
from kubernetes.dynamic import DynamicClient
from kubernetes.dynamic.exceptions import ConflictError, NotFoundError, ResourceNotFoundError, UnprocessibleEntityError

from kapi_e2e import NamespacedTest, eventually, short_id

GROUP = 'py.e2e.example.com'


def crd(plural, kind):
    return {
        'apiVersion': 'apiextensions.k8s.io/v1', 'kind': 'CustomResourceDefinition',
        'metadata': {'name': '%s.%s' % (plural, GROUP)},
        'spec': {
            'group': GROUP, 'scope': 'Namespaced',
            'names': {'plural': plural, 'singular': kind.lower(), 'kind': kind, 'listKind': kind + 'List'},
            'versions': [{
                'name': 'v1', 'served': True, 'storage': True,
                'subresources': {'status': {}, 'scale': {'specReplicasPath': '.spec.replicas',
                                                         'statusReplicasPath': '.status.replicas'}},
                'schema': {'openAPIV3Schema': {'type': 'object', 'properties': {
                    'spec': {'type': 'object', 'properties': {
                        'image': {'type': 'string', 'maxLength': 20},
                        'replicas': {'type': 'integer', 'minimum': 0, 'default': 1}}},
                    'status': {'type': 'object', 'properties': {'replicas': {'type': 'integer'}}}}}},
            }],
        },
    }


class TestDynamicClient(NamespacedTest):
    def test_custom_resources(self):
        ns = self.namespace
        dyn = DynamicClient(self.api)
        suffix = short_id()
        plural, kind = 'widgets' + suffix, 'Widget' + suffix.capitalize()
        with self.assertRaises(ResourceNotFoundError):
            dyn.resources.get(api_version=GROUP + '/v1', kind=kind)
        crds = dyn.resources.get(api_version='apiextensions.k8s.io/v1', kind='CustomResourceDefinition')
        crds.create(body=crd(plural, kind))
        crd_name = '%s.%s' % (plural, GROUP)
        try:
            eventually('the CRD to be established', lambda: True if any(
                c.type == 'Established' and c.status == 'True'
                for c in (crds.get(name=crd_name).status.conditions or [])) else None)
            # The client caches discovery; a new kind needs a fresh look.
            widgets = eventually('the new kind in discovery', lambda: self.lookup(dyn, kind))

            created = widgets.create(namespace=ns, body={'apiVersion': GROUP + '/v1', 'kind': kind,
                                                         'metadata': {'name': 'w1'}, 'spec': {'image': 'nginx'}})
            self.assertEqual(created.spec.replicas, 1)  # the schema's default
            self.assertEqual([w.metadata.name for w in widgets.get(namespace=ns).items], ['w1'])
            merged = widgets.patch(namespace=ns, name='w1', body={'spec': {'image': 'busybox'}},
                                   content_type='application/merge-patch+json')
            self.assertEqual(merged.spec.image, 'busybox')
            # Custom resources have no strategic merge patch.
            with self.assertRaises(Exception) as caught:
                widgets.patch(namespace=ns, name='w1', body={'spec': {'image': 'x'}},
                              content_type='application/strategic-merge-patch+json')
            self.assertEqual(getattr(caught.exception, 'status', None), 415)

            with self.assertRaises(UnprocessibleEntityError):
                widgets.patch(namespace=ns, name='w1', body={'spec': {'image': 'x' * 21}},
                              content_type='application/merge-patch+json')
            current = widgets.get(namespace=ns, name='w1')
            body = current.to_dict()
            body['spec']['replicas'] = 3
            replaced = widgets.replace(namespace=ns, body=body)
            self.assertEqual(replaced.spec.replicas, 3)
            with self.assertRaises(ConflictError):
                widgets.replace(namespace=ns, body=body)  # the resourceVersion is now stale

            status = widgets.subresources['status']
            with_status = status.patch(namespace=ns, name='w1', body={'status': {'replicas': 2}},
                                       content_type='application/merge-patch+json')
            self.assertEqual(with_status.status.replicas, 2)
            scale = widgets.subresources['scale'].get(namespace=ns, name='w1')
            self.assertEqual((scale.kind, scale.spec.replicas, scale.status.replicas), ('Scale', 3, 2))

            applied = dyn.server_side_apply(widgets, namespace=ns, field_manager='py-e2e', body={
                'apiVersion': GROUP + '/v1', 'kind': kind, 'metadata': {'name': 'w2'}, 'spec': {'image': 'applied'}})
            self.assertEqual(applied.spec.image, 'applied')
            self.assertIn('py-e2e', [m.manager for m in applied.metadata.managedFields])

            events = [(e['type'], e['object'].metadata.name) for e in dyn.watch(widgets, namespace=ns, timeout=1)]
            self.assertEqual(sorted(events), [('ADDED', 'w1'), ('ADDED', 'w2')])

            meta = dyn.request('GET', '/apis/%s/v1/namespaces/%s/%s' % (GROUP, ns, plural), header_params={
                'Accept': 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'})
            self.assertEqual(meta.kind, 'PartialObjectMetadataList')
            self.assertEqual(sorted(i.metadata.name for i in meta.items), ['w1', 'w2'])
            self.assertNotIn('spec', meta.items[0])

            widgets.delete(namespace=ns, name='w1')
            with self.assertRaises(NotFoundError):
                widgets.get(namespace=ns, name='w1')
            widgets.delete(namespace=ns, field_selector='metadata.name=w2')
            self.assertEqual(widgets.get(namespace=ns).items, [])
        finally:
            client.ApiextensionsV1Api(self.api).delete_custom_resource_definition(crd_name)

    @staticmethod
    def lookup(dyn, kind):
        dyn.resources.invalidate_cache()
        try:
            return dyn.resources.get(api_version=GROUP + '/v1', kind=kind)
        except ResourceNotFoundError:
            return None

    def test_builtin_resources(self):
        ns = self.namespace
        dyn = DynamicClient(self.api)
        cms = dyn.resources.get(api_version='v1', kind='ConfigMap')
        cms.create(namespace=ns, body={'metadata': {'name': 'dyn', 'labels': {'x': 'y'}}, 'data': {'a': '1'}})
        self.assertEqual(cms.get(namespace=ns, label_selector='x=y').items[0].data.a, '1')
        nodes = dyn.resources.get(api_version='v1', kind='Node')
        meta = nodes.get(header_params={'Accept': 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'})
        self.assertEqual(meta.kind, 'PartialObjectMetadataList')
        self.assertEqual(dyn.resources.get(api_version='apps/v1', kind='Deployment').namespaced, True)
        self.assertEqual(cms.delete(namespace=ns, name='dyn').status, 'Success')
