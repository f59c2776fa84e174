"""Shared set-up for the e2e tests: the cluster comes from the kubeconfig in $KUBECONFIG (kapi or
the reference kube-apiserver); every test class works in a namespace of its own."""
import os
import time
import unittest
import uuid

from kubernetes import client, config
from kubernetes.client.rest import ApiException

KUBECONFIG = os.environ.get('KUBECONFIG', '')
if KUBECONFIG == '':
    raise SystemExit('KUBECONFIG must name the kubeconfig of the server under test')
config.load_kube_config(config_file=KUBECONFIG)

# A guard against a hang, not a timing assertion.
HANG_GUARD_S = 60


def short_id():
    return uuid.uuid4().hex[:10]


def api_client():
    return client.ApiClient()


def eventually(what, probe, guard_s=HANG_GUARD_S):
    """Polls probe() until it returns something other than None."""
    deadline = time.monotonic() + guard_s
    while True:
        value = probe()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError('gave up waiting for ' + what)
        time.sleep(0.1)


def status_code(fn, *args, **kwargs):
    """Calls fn and returns the ApiException it raises (failing when it raises none)."""
    try:
        fn(*args, **kwargs)
    except ApiException as e:
        return e
    raise AssertionError('expected an ApiException from ' + getattr(fn, '__name__', repr(fn)))


def ensure_default_service_account(core, namespace):
    """kapi creates it in-process; kube-apiserver alone (no controller manager) does not, and the
    ServiceAccount admission plugin refuses pods without it: create it when it is missing."""
    try:
        core.read_namespaced_service_account('default', namespace)
        return
    except ApiException as e:
        if e.status != 404:
            raise
    try:
        core.create_namespaced_service_account(namespace, {'metadata': {'name': 'default'}})
    except ApiException as e:
        if e.status != 409:
            raise


class NamespacedTest(unittest.TestCase):
    """Creates a namespace named after the class for its tests and deletes it afterwards."""
    namespace = ''

    @classmethod
    def setUpClass(cls):
        cls.api = api_client()
        cls.core = client.CoreV1Api(cls.api)
        cls.namespace = 'py-' + cls.__name__.lower()[:40] + '-' + short_id()
        cls.core.create_namespace({'metadata': {'name': cls.namespace, 'labels': {'e2e': 'python'}}})

    @classmethod
    def tearDownClass(cls):
        try:
            cls.core.delete_namespace(cls.namespace)
        except ApiException:
            pass
        cls.api.close()
