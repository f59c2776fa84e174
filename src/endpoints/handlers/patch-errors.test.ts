// The 422 kube-apiserver v1.36.3 answers for a patched object that does not decode (asked
// through src/e2e/testing/oracle.ts): no kind or name, one cause on `patch`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DecodeError } from '../../apimachinery/fieldvalidation/index.ts';
import { patchedObjectInvalid } from './patch-errors.ts';

const gvk = { group: '', version: 'v1', kind: 'ConfigMap' };
const current = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' }, data: { x: '1' } };
const err = (detail: string): DecodeError => new DecodeError(gvk, gvk, detail);

describe('patchedObjectInvalid', () => {
  it('strategic merge patch: the patch map as Go prints it and the converter\'s text', () => {
    const patched = { ...current, data: 'x' };
    const e = patchedObjectInvalid('strategic-merge-patch', err('json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string'),
      '{"data":"x"}', current, patched, gvk);
    assert.deepEqual(e.status, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422, reason: 'Invalid',
      message: ' "" is invalid: patch: Invalid value: "map[data:x]": cannot restore map from string',
      details: { causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "map[data:x]": cannot restore map from string', field: 'patch' }] },
    });
  });

  it('strategic merge patch under Strict: the decoder\'s unknown fields', () => {
    const e = patchedObjectInvalid('strategic-merge-patch', err('strict decoding error: unknown field "bogus"'),
      '{"bogus":1,"data":{"q":"1"}}', current, { ...current, bogus: 1 }, gvk);
    assert.equal(e.status.message, ' "" is invalid: patch: Invalid value: "map[bogus:1 data:map[q:1]]": strict decoding error: unknown field "bogus"');
  });

  it('merge patch: the patched JSON with the levels the patch decoded in sorted order', () => {
    const patched = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' }, data: { x: '1', a: 1 } };
    const detail = 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string';
    const e = patchedObjectInvalid('merge-patch', err(detail), '{"data":{"a":1}}', current, patched, gvk);
    const value = '{"apiVersion":"v1","data":{"a":1,"x":"1"},"kind":"ConfigMap","metadata":{"name":"c","namespace":"d"}}';
    assert.equal(e.status.code, 422);
    assert.deepEqual(e.status.details, { causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${detail}`, field: 'patch' }] });
  });

  it('JSON patch: the containers on the operation\'s path are sorted', () => {
    const patched = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { namespace: 'd', name: 'c', labels: 'x' } };
    const e = patchedObjectInvalid('json-patch', err('json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'),
      '[{"op":"add","path":"/metadata/labels","value":"x"}]', current, patched, gvk);
    assert.match(e.status.message, /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"ConfigMap\\",\\"metadata\\":\{\\"labels\\":\\"x\\",\\"name\\":\\"c\\",\\"namespace\\":\\"d\\"\}\}": json: /);
  });
});
