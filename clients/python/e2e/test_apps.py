"""apps/v1 and batch/v1 through the typed client: deployments (with the scale subresource),
daemon sets and jobs, and the kinds of answer a delete gives."""
import yaml

from kubernetes import client

from kapi_e2e import NamespacedTest, short_id, status_code

DEPLOYMENT = '''apiVersion: apps/v1
kind: Deployment
metadata:
  name: %s
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
'''


class TestDeployments(NamespacedTest):
    def test_crud_and_scale(self):
        ns = self.namespace
        apps = client.AppsV1Api(self.api)
        name = 'nginx-' + short_id()
        apps.create_namespaced_deployment(ns, yaml.safe_load(DEPLOYMENT % name))
        read = apps.read_namespaced_deployment(name, ns)
        self.assertEqual(read.spec.replicas, 3)
        self.assertEqual(read.spec.selector.match_labels, {'app': 'nginx'})
        self.assertEqual(read.spec.template.spec.containers[0].ports[0].container_port, 80)
        # The defaults apps/v1 fills in.
        self.assertEqual(read.spec.strategy.type, 'RollingUpdate')
        self.assertEqual(read.spec.strategy.rolling_update.max_surge, '25%')
        self.assertEqual(read.spec.revision_history_limit, 10)
        self.assertEqual(read.spec.progress_deadline_seconds, 600)
        self.assertEqual(read.spec.template.spec.containers[0].termination_message_path, '/dev/termination-log')
        self.assertEqual(read.metadata.generation, 1)

        scale = apps.read_namespaced_deployment_scale(name, ns)
        self.assertEqual((scale.kind, scale.spec.replicas), ('Scale', 3))
        self.assertEqual(apps.patch_namespaced_deployment_scale(name, ns, {'spec': {'replicas': 5}}).spec.replicas, 5)
        scale = apps.read_namespaced_deployment_scale(name, ns)
        scale.spec.replicas = 1
        self.assertEqual(apps.replace_namespaced_deployment_scale(name, ns, scale).spec.replicas, 1)
        after = apps.read_namespaced_deployment(name, ns)
        self.assertEqual(after.spec.replicas, 1)
        self.assertEqual(after.metadata.generation, 3)
        negative = status_code(apps.patch_namespaced_deployment_scale, name, ns, {'spec': {'replicas': -1}})
        self.assertEqual(negative.status, 422)

        apps.delete_namespaced_deployment(name, ns, body=client.V1DeleteOptions(propagation_policy='Background'))
        self.assertEqual(status_code(apps.read_namespaced_deployment, name, ns).status, 404)

    def test_daemon_set(self):
        ns = self.namespace
        apps = client.AppsV1Api(self.api)
        name = 'ds-' + short_id()
        labels = {'app': name}
        apps.create_namespaced_daemon_set(ns, {
            'apiVersion': 'apps/v1', 'kind': 'DaemonSet', 'metadata': {'name': name, 'labels': labels},
            'spec': {'selector': {'matchLabels': labels}, 'updateStrategy': {'type': 'RollingUpdate'},
                     'template': {'metadata': {'labels': labels}, 'spec': {'containers': [{'name': 'c', 'image': 'nginx'}]}}}})
        read = apps.read_namespaced_daemon_set(name, ns)
        self.assertEqual(read.spec.template.spec.containers[0].name, 'c')
        self.assertEqual(read.spec.update_strategy.rolling_update.max_unavailable, 1)
        mismatch = status_code(apps.create_namespaced_daemon_set, ns, {
            'metadata': {'name': name + '-bad'},
            'spec': {'selector': {'matchLabels': {'a': 'b'}},
                     'template': {'metadata': {'labels': {'a': 'c'}}, 'spec': {'containers': [{'name': 'c', 'image': 'nginx'}]}}}})
        self.assertEqual(mismatch.status, 422)
        apps.delete_namespaced_daemon_set(name, ns, body=client.V1DeleteOptions())


class TestJobs(NamespacedTest):
    def test_crud(self):
        ns = self.namespace
        batch = client.BatchV1Api(self.api)
        name = 'job-' + short_id()
        created = batch.create_namespaced_job(ns, {
            'apiVersion': 'batch/v1', 'kind': 'Job', 'metadata': {'name': name},
            'spec': {'template': {'spec': {'restartPolicy': 'Never', 'containers': [
                {'name': 'sleep', 'image': 'busybox', 'command': ['sh', '-c', 'sleep 5']}]}}}})
        # The job controller's labels and selector, set on create.
        self.assertEqual(created.spec.selector.match_labels, {'batch.kubernetes.io/controller-uid': created.metadata.uid})
        self.assertEqual(created.spec.template.metadata.labels['batch.kubernetes.io/job-name'], name)
        self.assertEqual(created.spec.backoff_limit, 6)
        self.assertEqual(created.spec.completion_mode, 'NonIndexed')
        read = batch.read_namespaced_job(name, ns)
        self.assertEqual(read.spec.template.spec.containers[0].command, ['sh', '-c', 'sleep 5'])
        # Background propagation: the job is gone when the delete answers.
        # Deleted at once: a Status naming it (which this client hands back as a dict).
        deleted = batch.delete_namespaced_job(name, ns, body={'propagationPolicy': 'Background'})
        self.assertEqual((deleted['kind'], deleted['status'], deleted['details']['name']), ('Status', 'Success', name))
        self.assertEqual(status_code(batch.read_namespaced_job, name, ns).status, 404)
