"""Server-side apply through the typed client: create by apply, managedFields, a conflict
between two managers, force (sent as force=True) and a strategic merge patch of a model object."""
import json

from kapi_e2e import NamespacedTest, short_id, status_code

APPLY = 'application/apply-patch+yaml'


class TestServerSideApply(NamespacedTest):
    def manifest(self, name, data):
        return {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': name, 'namespace': self.namespace}, 'data': data}

    def test_apply_conflict_and_force(self):
        ns = self.namespace
        name = 'ssa-' + short_id()
        created = self.core.patch_namespaced_config_map(name, ns, self.manifest(name, {'hello': 'world'}),
                                                        field_manager='alice', _content_type=APPLY)
        self.assertEqual(created.data, {'hello': 'world'})
        managers = [(m.manager, m.operation) for m in created.metadata.managed_fields]
        self.assertEqual(managers, [('alice', 'Apply')])
        self.assertEqual(created.metadata.managed_fields[0].fields_v1, {'f:data': {'f:hello': {}}})

        conflict = status_code(self.core.patch_namespaced_config_map, name, ns, self.manifest(name, {'hello': 'bob'}),
                               field_manager='bob', _content_type=APPLY)
        body = json.loads(conflict.body)
        self.assertEqual((conflict.status, body['reason']), (409, 'Conflict'))
        self.assertEqual(body['message'], 'Apply failed with 1 conflict: conflict with "alice": .data.hello')
        self.assertEqual(body['details']['causes'], [{'reason': 'FieldManagerConflict', 'message': 'conflict with "alice"',
                                                      'field': '.data.hello'}])

        forced = self.core.patch_namespaced_config_map(name, ns, self.manifest(name, {'hello': 'bob'}),
                                                       field_manager='bob', force=True, _content_type=APPLY)
        self.assertEqual(forced.data, {'hello': 'bob'})
        self.assertEqual([m.manager for m in forced.metadata.managed_fields], ['bob'])

        # Apply without a field manager is refused.
        no_manager = status_code(self.core.patch_namespaced_config_map, name, ns, self.manifest(name, {}), _content_type=APPLY)
        self.assertEqual((no_manager.status, json.loads(no_manager.body)['reason']), (422, 'Invalid'))

        # A model object sent back as a strategic merge patch (the client's default for objects).
        cm = self.core.read_namespaced_config_map(name, ns)
        cm.data['new'] = 'value'
        updated = self.core.patch_namespaced_config_map(name, ns, cm, field_manager='carol')
        self.assertEqual(updated.data, {'hello': 'bob', 'new': 'value'})
        self.assertEqual(sorted((m.manager, m.operation) for m in updated.metadata.managed_fields),
                         [('bob', 'Apply'), ('carol', 'Update')])

    def test_dry_run_apply_stores_nothing(self):
        ns = self.namespace
        name = 'ssa-dry-' + short_id()
        answer = self.core.patch_namespaced_config_map(name, ns, self.manifest(name, {'a': '1'}), field_manager='dry',
                                                       dry_run='All', _content_type=APPLY)
        self.assertEqual(answer.data, {'a': '1'})
        self.assertEqual(status_code(self.core.read_namespaced_config_map, name, ns).status, 404)
