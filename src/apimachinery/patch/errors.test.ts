import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../errors/status-error.ts';
import { schemaForGVK } from '../openapi/index.ts';
import type { SchemaNode } from '../openapi/index.ts';
import { interpretStrategicMergePatchError, PatchError } from './errors.ts';
import { applyStrategicMergePatch } from './strategic-merge-patch.ts';

const POD = schemaForGVK({ group: '', version: 'v1', kind: 'Pod' });
const REVISION = schemaForGVK({ group: 'apps', version: 'v1', kind: 'ControllerRevision' });
const live = {
  metadata: { name: 'p', finalizers: ['a'], labels: { x: 'y' } },
  spec: { containers: [{ name: 'a', image: 'a', ports: [{ containerPort: 80 }] }], volumes: [{ name: 'v', emptyDir: {} }] },
};

interface ErrorCase {
  name: string;
  patch: unknown;
  original?: unknown;
  schema?: SchemaNode | undefined;
  code: number;
  reason: string;
  message: string;
}

const cases: ErrorCase[] = [
  {
    name: 'list item without its merge key',
    patch: { spec: { containers: [{ image: 'x', ports: [{ containerPort: 1.5 }] }] } },
    code: 500, reason: '', message: 'map: map[image:x ports:[map[containerPort:1.5]]] does not contain declared merge key: name',
  },
  {
    name: '$patch: delete without the merge key',
    patch: { spec: { containers: [{ $patch: 'delete' }] } },
    code: 500, reason: '', message: 'map: map[$patch:delete] does not contain declared merge key: name',
  },
  {
    name: 'unknown $patch value in a list',
    patch: { spec: { containers: [{ name: 'a', $patch: 'foo' }] } },
    code: 500, reason: '', message: 'unknown patch type: foo in map: map[$patch:foo name:a]',
  },
  {
    name: '$patch: merge in a list',
    patch: { spec: { containers: [{ name: 'a', $patch: 'merge' }] } },
    code: 500, reason: '', message: 'merging lists cannot yet be specified in the patch',
  },
  {
    name: '$patch: merge in a map is unknown there',
    patch: { metadata: { labels: { $patch: 'merge', a: 'b' } } },
    code: 500, reason: '', message: 'unknown patch type: merge in map: map[$patch:merge a:b]',
  },
  {
    name: 'a non-string $patch prints as Go does',
    patch: { metadata: { labels: { $patch: 1 } } },
    code: 500, reason: '', message: 'unknown patch type: %!s(int64=1) in map: map[$patch:1]',
  },
  {
    name: '$retainKeys that is not a list',
    patch: { spec: { volumes: [{ name: 'v', $retainKeys: 'x' }] } },
    code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys',
  },
  {
    name: '$retainKeys missing a field the patch sets',
    patch: { spec: { volumes: [{ name: 'v', hostPath: { path: '/' }, $retainKeys: ['name'] }] } },
    code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys',
  },
  {
    name: '$deleteFromPrimitiveList without a slash',
    patch: { metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } },
    code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list',
  },
  {
    name: '$setElementOrder without a slash',
    patch: { metadata: { $setElementOrderfinalizers: ['a'] } },
    code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list',
  },
  {
    name: 'patch list items missing from $setElementOrder',
    patch: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b', image: 'b' }] } },
    code: 500, reason: '', message: "The order in patch list:\n[map[image:b name:b]]\n doesn't match $setElementOrder list:\n[map[name:a]]\n",
  },
  {
    name: '$setElementOrder that is not a list',
    patch: { spec: { '$setElementOrder/containers': 'x' } },
    code: 500, reason: '', message: 'expected a []interface {}, but received a string',
  },
  {
    name: 'a list of lists',
    original: { metadata: { finalizers: [] } },
    patch: { metadata: { finalizers: [['a']] } },
    code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request',
  },
  {
    name: 'list items of different types',
    patch: { metadata: { finalizers: [1] } },
    code: 500, reason: '', message: 'list element types are not identical: [[a] [1]]',
  },
  {
    name: 'a patch that is not an object',
    patch: [1],
    code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
  {
    name: 'nested objects inside a RawExtension',
    schema: REVISION,
    original: { data: { spec: { b: 2 } } },
    patch: { data: { spec: { a: 1 } } },
    code: 500, reason: '', message: 'unable to find api field in struct RawExtension for the json field "spec"',
  },
  {
    name: 'no schema (custom resources)',
    schema: undefined,
    patch: {},
    code: 400, reason: 'BadRequest', message: 'strategic merge patch format is not supported',
  },
];

describe('strategic merge patch errors', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const schema = 'schema' in tc ? tc.schema : POD;
      let thrown: unknown;
      try {
        applyStrategicMergePatch(tc.original ?? live, tc.patch, schema);
      } catch (err) {
        thrown = err;
      }
      assert.ok(thrown instanceof PatchError, 'throws a PatchError');
      const status = interpretStrategicMergePatchError(thrown).status;
      assert.equal(status.code, tc.code);
      assert.equal(status.reason, tc.reason);
      assert.equal(status.message, tc.message);
      if (tc.code === 422) assert.deepEqual(status.details, {});
    });
  }

  it('passes a StatusError through and turns other errors into a 500 with their text', () => {
    const se = interpretStrategicMergePatchError(new Error('boom'));
    assert.ok(se instanceof StatusError);
    assert.deepEqual(se.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: '', message: 'boom' });
    assert.equal(interpretStrategicMergePatchError(se), se);
  });
});
