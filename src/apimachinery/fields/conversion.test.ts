import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { convertFieldSelector, defaultMetaV1FieldSelectorConversion, parseFieldSelectorParam, validateFieldSelector } from './conversion.ts';
import { parseFieldSelector } from './selector.ts';
import { isStatusError } from '../errors/status-error.ts';

function badRequest(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(isStatusError(err));
    assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
    return true;
  });
}

describe('field label validation', () => {
  const supported = ['metadata.name', 'metadata.namespace', 'status.phase'];
  it('accepts supported fields', () => {
    assert.equal(validateFieldSelector(parseFieldSelector('status.phase=Running,metadata.name=a'), supported).toString(),
      'metadata.name=a,status.phase=Running');
  });
  it('rejects an unsupported field with 400', () => {
    badRequest(() => validateFieldSelector(parseFieldSelector('metadata.name=a,spec.foo=b'), supported), 'field label not supported: spec.foo');
  });
  it('default conversion names the two metadata fields', () => {
    badRequest(() => convertFieldSelector(parseFieldSelector('foo.bar=baz'), defaultMetaV1FieldSelectorConversion),
      '"foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"');
    assert.equal(convertFieldSelector(parseFieldSelector('metadata.namespace=x'), defaultMetaV1FieldSelectorConversion).toString(),
      'metadata.namespace=x');
  });
  it('a syntax error in the query parameter is a 400', () => {
    badRequest(() => parseFieldSelectorParam('abc'), "invalid selector: 'abc'; can't understand 'abc'");
  });
});
