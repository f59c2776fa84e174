"""Watches through watch.Watch().stream() (which sends watch=True, a Python boolean) and the
client's SharedInformer."""
import threading

from kubernetes import watch
from kubernetes.client.rest import ApiException
from kubernetes.informer import ADDED, DELETED, MODIFIED, SharedInformer

from kapi_e2e import HANG_GUARD_S, NamespacedTest, eventually, short_id


def cm(name, value, label='watch'):
    return {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': name, 'labels': {'e2e': label}},
            'data': {'key': value}}


def initial_events(func, nudge, *args, **kwargs):
    """The events of a watch without a resourceVersion that ends after a second. kube-apiserver
    serves it from its watch cache once that has seen etcd's current revision, and answers 504 (Too
    large resource version) when it has not within its wait. On an etcd without progress
    notifications (Debian's 3.4) only a write to the resource moves the cache: nudge() makes one,
    then the watch is tried again."""
    for attempt in range(5):
        try:
            return list(watch.Watch().stream(func, *args, timeout_seconds=1, **kwargs))
        except ApiException as e:
            if e.status != 504 or attempt == 4:
                raise
            nudge()
    return []


class TestWatch(NamespacedTest):
    def test_events_after_a_list(self):
        ns = self.namespace
        a, b = 'a-' + short_id(), 'b-' + short_id()
        self.core.create_namespaced_config_map(ns, cm(a, 'a'))
        rv = self.core.list_namespaced_config_map(ns, label_selector='e2e=watch').metadata.resource_version
        self.core.create_namespaced_config_map(ns, cm(b, 'b'))
        self.core.patch_namespaced_config_map(b, ns, {'data': {'key': 'b2'}})
        self.core.delete_collection_namespaced_config_map(ns, label_selector='e2e=watch')
        seen = []
        # timeout_seconds ends the stream on the server's side.
        for event in watch.Watch().stream(self.core.list_namespaced_config_map, ns, resource_version=rv,
                                          label_selector='e2e=watch', timeout_seconds=1):
            seen.append((event['type'], event['object'].metadata.name))
        self.assertEqual(seen[:2], [('ADDED', b), ('MODIFIED', b)])
        self.assertEqual(sorted(seen[2:]), sorted([('DELETED', a), ('DELETED', b)]))

    def test_live_events_stop_and_bookmarks(self):
        ns = self.namespace
        name = 'live-' + short_id()
        w = watch.Watch()
        seen = []
        rv = self.core.list_namespaced_config_map(ns).metadata.resource_version

        # The watch starts from rv, so the writes may happen before or after it is established.
        def writer():
            self.core.create_namespaced_config_map(ns, cm(name, '1', 'live'))
            self.core.patch_namespaced_config_map(name, ns, {'data': {'key': '2'}})

        thread = threading.Thread(target=writer)
        thread.start()
        for event in w.stream(self.core.list_namespaced_config_map, ns, resource_version=rv, label_selector='e2e=live',
                              allow_watch_bookmarks=True, timeout_seconds=HANG_GUARD_S, _request_timeout=HANG_GUARD_S):
            if event['type'] == 'BOOKMARK':
                continue
            seen.append((event['type'], event['object'].data['key']))
            if len(seen) == 2:
                # stop() ends the stream at its next line; break so as not to wait for one.
                w.stop()
                break
        thread.join()
        self.assertEqual(seen, [('ADDED', '1'), ('MODIFIED', '2')])

    def test_initial_events_of_a_watch_without_resource_version(self):
        ns = self.namespace
        name = 'init-' + short_id()
        self.core.create_namespaced_config_map(ns, cm(name, 'x', 'init'))
        def nudge():
            self.core.create_namespaced_config_map(ns, {'metadata': {'generateName': 'nudge-'}})

        events = initial_events(self.core.list_namespaced_config_map, nudge, ns, label_selector='e2e=init')
        self.assertEqual([(e['type'], e['object'].metadata.name) for e in events], [('ADDED', name)])
        by_name = initial_events(self.core.list_namespaced_config_map, nudge, ns, field_selector='metadata.name=' + name)
        self.assertEqual([(e['type'], e['raw_object']['metadata']['name']) for e in by_name], [('ADDED', name)])


class TestInformer(NamespacedTest):
    def test_cache_follows_the_server(self):
        ns = self.namespace
        pre, name = 'pre-' + short_id(), 'inf-' + short_id()
        self.core.create_namespaced_config_map(ns, cm(pre, 'v', 'inf'))
        fired = {ADDED: threading.Event(), MODIFIED: threading.Event(), DELETED: threading.Event()}
        informer = SharedInformer(list_func=self.core.list_namespaced_config_map, namespace=ns, label_selector='e2e=inf')
        for kind, event in fired.items():
            informer.add_event_handler(kind, lambda obj, e=event: e.set() if obj.metadata.name == name else None)
        informer.start()
        try:
            eventually('the pre-existing object in the cache', lambda: informer.cache.get_by_key(ns + '/' + pre))
            self.core.create_namespaced_config_map(ns, cm(name, 'v', 'inf'))
            self.assertTrue(fired[ADDED].wait(HANG_GUARD_S))
            self.core.patch_namespaced_config_map(name, ns, {'data': {'key': 'updated'}})
            self.assertTrue(fired[MODIFIED].wait(HANG_GUARD_S))
            self.assertEqual(informer.cache.get_by_key(ns + '/' + name).data['key'], 'updated')
            self.core.delete_namespaced_config_map(name, ns)
            self.assertTrue(fired[DELETED].wait(HANG_GUARD_S))
            self.assertIsNone(informer.cache.get_by_key(ns + '/' + name))
        finally:
            informer.stop()
