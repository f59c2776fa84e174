"""core/v1 through the typed client: namespaces, pods (and the exec, attach, port-forward and log
answers of a server without nodes), services, replication controllers, config maps with every
patch type, list pagination, errors and delete options."""
import json

from kubernetes import client
from kubernetes.client.rest import ApiException
from kubernetes.stream import portforward, stream

from kapi_e2e import NamespacedTest, api_client, ensure_default_service_account, short_id, status_code


def status_body(err):
    return json.loads(err.body)


def pod(name):
    return {'apiVersion': 'v1', 'kind': 'Pod', 'metadata': {'name': name, 'labels': {'app': name}},
            'spec': {'containers': [{'name': 'sleep', 'image': 'busybox', 'args': ['sleep', '3600']}]}}


class TestNamespaces(NamespacedTest):
    def test_lifecycle(self):
        name = 'py-ns-' + short_id()
        created = self.core.create_namespace({'metadata': {'name': name, 'labels': {'team': 'a'}}})
        self.assertEqual(created.metadata.name, name)
        self.assertEqual(created.status.phase, 'Active')
        # The NamespaceLifecycle defaulting: the kubernetes.io/metadata.name label.
        self.assertEqual(created.metadata.labels['kubernetes.io/metadata.name'], name)
        listed = self.core.list_namespace(label_selector='team=a')
        self.assertIn(name, [n.metadata.name for n in listed.items])
        patched = self.core.patch_namespace(name, {'metadata': {'labels': {'team': 'b'}}})
        self.assertEqual(patched.metadata.labels['team'], 'b')
        # An object with a finalizer of its own keeps the namespace Terminating while the test looks.
        hold = 'e2e.example.com/hold'
        self.core.create_namespaced_config_map(name, {'metadata': {'name': 'content', 'finalizers': [hold]}})
        # Deleting a namespace only marks it (the client declares a Status, so the Namespace comes as
        # a dict): it is Terminating until the namespace controller has emptied it.
        deleted = self.core.delete_namespace(name)
        self.assertEqual((deleted['kind'], deleted['status']['phase']), ('Namespace', 'Terminating'))
        self.assertIn('deletionTimestamp', deleted['metadata'])
        err = status_code(self.core.create_namespaced_config_map, name, {'metadata': {'name': 'late'}})
        self.assertEqual(err.status, 403)
        self.assertEqual(status_body(err)['reason'], 'Forbidden')
        self.assertEqual(status_body(err)['message'], 'configmaps "late" is forbidden: unable to create new content in '
                         'namespace %s because it is being terminated' % name)
        self.assertEqual(self.core.read_namespace(name).status.phase, 'Terminating')
        self.core.patch_namespaced_config_map('content', name, [{'op': 'remove', 'path': '/metadata/finalizers'}])


class TestPods(NamespacedTest):
    def test_crud_and_node_less_subresources(self):
        ns = self.namespace
        ensure_default_service_account(self.core, ns)
        name = 'busybox-' + short_id()
        created = self.core.create_namespaced_pod(ns, pod(name))
        self.assertEqual(created.metadata.name, name)
        self.assertEqual(created.status.phase, 'Pending')
        self.assertEqual(created.spec.service_account_name, 'default')
        read = self.core.read_namespaced_pod(name, ns)
        self.assertEqual(read.metadata.uid, created.metadata.uid)
        self.assertGreater(len(self.core.list_pod_for_all_namespaces().items), 0)
        self.assertEqual([p.metadata.name for p in self.core.list_namespaced_pod(ns, label_selector='app=' + name).items], [name])

        # No node runs the pod: exec and port-forward are refused before any upgrade.
        for what, call in (
            ('exec', lambda: stream(self.core.connect_get_namespaced_pod_exec, name, ns, command=['ls'],
                                    stderr=True, stdin=False, stdout=True, tty=False)),
            ('exec POST', lambda: stream(self.core.connect_post_namespaced_pod_exec, name, ns, command=['ls'],
                                         stderr=True, stdin=False, stdout=True, tty=False)),
            ('attach', lambda: stream(self.core.connect_get_namespaced_pod_attach, name, ns,
                                      stderr=True, stdin=False, stdout=True, tty=False)),
            ('portforward', lambda: portforward(self.core.connect_get_namespaced_pod_portforward, name, ns, ports='80')),
        ):
            with self.subTest(what):
                with self.assertRaises(ApiException) as caught:
                    call()
                self.assertIn('400 Bad Request', str(caught.exception.reason))
                self.assertIn('pod %s does not have a host assigned' % name, str(caught.exception.reason))
        # Logs of a pod without a node: an empty answer.
        self.assertFalse(self.core.read_namespaced_pod_log(name, ns))

        # An unscheduled pod goes at once, whatever its grace period.
        self.core.delete_namespaced_pod(name, ns, body={})
        err = status_code(self.core.read_namespaced_pod, name, ns)
        self.assertEqual(err.status, 404)
        self.assertEqual(status_body(err)['message'], 'pods "%s" not found' % name)


class TestServices(NamespacedTest):
    def test_crud_and_strategic_patch(self):
        ns = self.namespace
        name = 'frontend-' + short_id()
        manifest = {'apiVersion': 'v1', 'kind': 'Service', 'metadata': {'name': name, 'labels': {'name': name}},
                    'spec': {'ports': [{'name': 'port', 'port': 80, 'protocol': 'TCP', 'targetPort': 80}],
                             'selector': {'name': name}}}
        created = self.core.create_namespaced_service(ns, manifest)
        self.assertEqual(created.spec.type, 'ClusterIP')
        self.assertTrue(created.spec.cluster_ip.startswith('10.0.0.'))
        self.assertEqual(created.spec.cluster_ips, [created.spec.cluster_ip])
        self.assertEqual(self.core.read_namespaced_service(name, ns).spec.cluster_ip, created.spec.cluster_ip)
        # The client sends a dict as a strategic merge patch: ports merge by their port number.
        manifest['spec']['ports'] = [{'name': 'new', 'port': 8080, 'protocol': 'TCP', 'targetPort': 8080}]
        patched = self.core.patch_namespaced_service(name, ns, manifest)
        self.assertEqual(sorted(p.port for p in patched.spec.ports), [80, 8080])
        status = self.core.read_namespaced_service_status(name, ns)
        self.assertEqual(status.metadata.name, name)
        self.core.delete_namespaced_service(name, ns, body={})
        self.assertEqual(status_code(self.core.read_namespaced_service, name, ns).status, 404)


class TestReplicationControllers(NamespacedTest):
    def test_crud_and_scale(self):
        ns = self.namespace
        name = 'rc-' + short_id()
        labels = {'name': name}
        rc = {'apiVersion': 'v1', 'kind': 'ReplicationController', 'metadata': {'name': name, 'labels': labels},
              'spec': {'replicas': 2, 'selector': labels, 'template': {'metadata': {'labels': labels}, 'spec': {
                  'containers': [{'name': 'nginx', 'image': 'nginx', 'ports': [{'containerPort': 80}]}]}}}}
        self.assertEqual(self.core.create_namespaced_replication_controller(ns, rc).spec.replicas, 2)
        self.assertEqual(self.core.read_namespaced_replication_controller(name, ns).spec.replicas, 2)
        scale = self.core.read_namespaced_replication_controller_scale(name, ns)
        self.assertEqual(scale.spec.replicas, 2)
        scaled = self.core.patch_namespaced_replication_controller_scale(name, ns, {'spec': {'replicas': 0}})
        # autoscaling/v1 omits spec.replicas when it is 0.
        self.assertIsNone(scaled.spec.replicas)
        self.assertEqual(self.core.read_namespaced_replication_controller(name, ns).spec.replicas, 0)
        self.core.delete_namespaced_replication_controller(name, ns, propagation_policy='Background')


class TestConfigMaps(NamespacedTest):
    def cm(self, name, data, labels=None):
        return {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': name, 'labels': labels or {'e2e': 'cm'}},
                'data': data}

    def test_patch_types(self):
        ns = self.namespace
        name = 'patches-' + short_id()
        self.core.create_namespaced_config_map(ns, self.cm(name, {'config.json': '{"a":1}', 'keep': 'x'}))
        # A list body goes as a JSON patch.
        json_patched = self.core.patch_namespaced_config_map(name, ns, [{'op': 'replace', 'path': '/data', 'value': {'new': 'json'}}])
        self.assertEqual(json_patched.data, {'new': 'json'})
        merged = self.core.patch_namespaced_config_map(name, ns, {'data': {'m': 'merge', 'new': None}},
                                                       _content_type='application/merge-patch+json')
        self.assertEqual(merged.data, {'m': 'merge'})
        strategic = self.core.patch_namespaced_config_map(name, ns, {'data': {'s': 'smp'}},
                                                          _content_type='application/strategic-merge-patch+json')
        self.assertEqual(strategic.data, {'m': 'merge', 's': 'smp'})
        failed = status_code(self.core.patch_namespaced_config_map, name, ns, [{'op': 'test', 'path': '/data/m', 'value': 'other'}])
        self.assertEqual(failed.status, 422)
        self.assertEqual(status_body(failed)['reason'], 'Invalid')
        self.assertEqual(self.core.read_namespaced_config_map(name, ns).data, {'m': 'merge', 's': 'smp'})

    def test_pagination_and_delete_collection(self):
        ns = self.namespace
        for i in range(5):
            self.core.create_namespaced_config_map(ns, self.cm('page-%d' % i, {'i': str(i)}, {'e2e': 'page'}))
        names, token, pages = [], None, 0
        while True:
            page = self.core.list_namespaced_config_map(ns, label_selector='e2e=page', limit=2, _continue=token)
            pages += 1
            self.assertLessEqual(len(page.items), 2)
            names += [c.metadata.name for c in page.items]
            token = page.metadata._continue
            # No remainingItemCount on a list with a label selector: the server cannot count cheaply.
            self.assertIsNone(page.metadata.remaining_item_count)
            if not token:
                break
        self.assertEqual(names, ['page-%d' % i for i in range(5)])
        self.assertEqual(pages, 3)
        bad = status_code(self.core.list_namespaced_config_map, ns, limit=2, _continue='not-a-token')
        self.assertEqual(bad.status, 400)
        self.core.delete_collection_namespaced_config_map(ns, label_selector='e2e=page')
        self.assertEqual(self.core.list_namespaced_config_map(ns, label_selector='e2e=page').items, [])

    def test_errors(self):
        ns = self.namespace
        name = 'errors-' + short_id()
        self.core.create_namespaced_config_map(ns, self.cm(name, {'a': '1'}))
        dup = status_code(self.core.create_namespaced_config_map, ns, self.cm(name, {}))
        self.assertEqual((dup.status, status_body(dup)['reason']), (409, 'AlreadyExists'))
        self.assertEqual(status_body(dup)['message'], 'configmaps "%s" already exists' % name)
        invalid = status_code(self.core.create_namespaced_config_map, ns, self.cm('Bad_Name', {}))
        body = status_body(invalid)
        self.assertEqual((invalid.status, body['reason']), (422, 'Invalid'))
        self.assertEqual(body['details']['causes'][0]['field'], 'metadata.name')
        stale = self.core.read_namespaced_config_map(name, ns)
        self.core.patch_namespaced_config_map(name, ns, {'data': {'a': '2'}})
        stale.data = {'a': 'stale'}
        conflict = status_code(self.core.replace_namespaced_config_map, name, ns, stale)
        self.assertEqual((conflict.status, status_body(conflict)['reason']), (409, 'Conflict'))
        missing = status_code(self.core.read_namespaced_config_map, 'missing-' + name, ns)
        self.assertEqual(status_body(missing)['details'], {'name': 'missing-' + name, 'kind': 'configmaps'})

    def test_delete_options(self):
        ns = self.namespace
        name = 'delete-' + short_id()
        created = self.core.create_namespaced_config_map(ns, self.cm(name, {'a': '1'}))
        # dryRun: the answer of a delete, nothing deleted.
        self.core.delete_namespaced_config_map(name, ns, dry_run='All')
        self.core.read_namespaced_config_map(name, ns)
        wrong_uid = status_code(self.core.delete_namespaced_config_map, name, ns,
                                body=client.V1DeleteOptions(preconditions=client.V1Preconditions(uid='not-the-uid')))
        self.assertEqual(wrong_uid.status, 409)
        self.assertEqual(status_body(wrong_uid)['message'], (
            'Operation cannot be fulfilled on ConfigMap "%s": the UID in the precondition (not-the-uid) does not match the UID '
            'in record (%s). The object might have been deleted and then recreated') % (name, created.metadata.uid))
        wrong_rv = status_code(self.core.delete_namespaced_config_map, name, ns,
                               body={'preconditions': {'resourceVersion': '1'}})
        self.assertEqual(wrong_rv.status, 409)
        bad_policy = status_code(self.core.delete_namespaced_config_map, name, ns, propagation_policy='Sometimes')
        self.assertEqual(bad_policy.status, 422)
        deleted = self.core.delete_namespaced_config_map(
            name, ns, grace_period_seconds=0, propagation_policy='Background',
            body=client.V1DeleteOptions(preconditions=client.V1Preconditions(uid=created.metadata.uid,
                                                                              resource_version=created.metadata.resource_version)))
        # This client hands a delete's answer back as a dict.
        self.assertEqual((deleted['status'], deleted['details']['name'], deleted['details']['kind']), ('Success', name, 'configmaps'))
        self.assertEqual(status_code(self.core.read_namespaced_config_map, name, ns).status, 404)

        # Foreground: the object stays, marked, with the finalizer the garbage collector removes.
        fg = 'foreground-' + short_id()
        self.core.create_namespaced_config_map(ns, self.cm(fg, {}))
        marked = self.core.delete_namespaced_config_map(fg, ns, propagation_policy='Foreground')
        self.assertEqual((marked['kind'], marked['metadata']['finalizers']), ('ConfigMap', ['foregroundDeletion']))
        self.assertIn('deletionTimestamp', marked['metadata'])


class TestDiscovery(NamespacedTest):
    def test_versions_and_resources(self):
        self.assertIn('v1', client.CoreApi(api_client()).get_api_versions().versions)
        groups = {g.name: g for g in client.ApisApi(self.api).get_api_versions().groups}
        for group in ('apps', 'batch', 'apiextensions.k8s.io', 'rbac.authorization.k8s.io', 'coordination.k8s.io'):
            self.assertIn(group, groups)
        self.assertEqual(groups['apps'].preferred_version.version, 'v1')
        resources = {r.name: r for r in self.core.get_api_resources().resources}
        self.assertEqual(resources['pods'].kind, 'Pod')
        self.assertIn('po', resources['pods'].short_names)
        self.assertIn('pods/exec', resources)
        self.assertFalse(resources['namespaces'].namespaced)
        info = client.VersionApi(self.api).get_code()
        self.assertEqual((info.major, info.minor[:2]), ('1', '36'))
        self.assertEqual(client.CoreV1Api(self.api).list_node().items, [])
