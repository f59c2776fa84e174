"""kubernetes.utils.create_from_yaml / create_from_dict: multi-document YAML, List kinds, RBAC
and the errors it gathers on conflicts."""
import os
import tempfile

from kubernetes import client, utils

from kapi_e2e import NamespacedTest, short_id

MANIFEST = '''apiVersion: v1
kind: Service
metadata:
  name: svc-%(id)s
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm-%(id)s}
  data: {a: "1"}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: dep-%(id)s}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: role-%(id)s
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list]
'''


class TestCreateFromYaml(NamespacedTest):
    def test_multi_document_file(self):
        ns = self.namespace
        uid = short_id()
        with tempfile.NamedTemporaryFile('w', suffix='.yaml', delete=False) as f:
            f.write(MANIFEST % {'id': uid})
        try:
            created = utils.create_from_yaml(self.api, f.name, namespace=ns)
        finally:
            os.unlink(f.name)
        self.assertEqual(len(created), 3)
        self.assertEqual(client.CoreV1Api(self.api).read_namespaced_config_map('cm-' + uid, ns).data, {'a': '1'})
        self.assertEqual(client.AppsV1Api(self.api).read_namespaced_deployment('dep-' + uid, ns).spec.replicas, 1)
        role = client.RbacAuthorizationV1Api(self.api).read_namespaced_role('role-' + uid, ns)
        self.assertEqual(role.rules[0].verbs, ['get', 'list'])

        # The same objects again: every create fails with AlreadyExists, gathered in one error.
        with self.assertRaises(utils.FailToCreateError) as caught:
            utils.create_from_yaml(self.api, yaml_objects=[
                {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'cm-' + uid}},
                {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'cm-new-' + uid}},
            ], namespace=ns)
        self.assertEqual([e.status for e in caught.exception.api_exceptions], [409])
        client.CoreV1Api(self.api).read_namespaced_config_map('cm-new-' + uid, ns)

    def test_create_from_dict_and_apply(self):
        ns = self.namespace
        core = client.CoreV1Api(self.api)
        created, applied = 'dict-' + short_id(), 'applied-' + short_id()
        utils.create_from_dict(self.api, {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': created}}, namespace=ns)
        self.assertEqual(core.read_namespaced_config_map(created, ns).metadata.name, created)
        # apply=True goes through server-side apply (field manager python-client): running it again
        # with changed data is an update, not a conflict.
        obj = {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': applied}, 'data': {'v': '1'}}
        utils.create_from_dict(self.api, obj, namespace=ns, apply=True)
        obj['data']['v'] = '2'
        utils.create_from_dict(self.api, obj, namespace=ns, apply=True)
        read = core.read_namespaced_config_map(applied, ns)
        self.assertEqual(read.data, {'v': '2'})
        self.assertEqual([(m.manager, m.operation) for m in read.metadata.managed_fields], [('python-client', 'Apply')])
