import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeContinue, encodeContinue } from './continue.ts';
import { isStorageError } from './interfaces.ts';

const b64 = (s: string): string => Buffer.from(s).toString('base64url');

describe('continue tokens', () => {
  it('encodes as kube does: base64url without padding of Go-escaped JSON', () => {
    const token = encodeContinue('/registry/pods/ns/a<b>\u0000', '/registry/pods/', 42);
    assert.equal(Buffer.from(token, 'base64url').toString(), '{"v":"meta.k8s.io/v1","rv":42,"start":"ns/a\\u003cb\\u003e\\u0000"}');
    assert.doesNotMatch(token, /[=+/]/);
    assert.deepEqual(decodeContinue(token, '/registry/pods/'), { key: '/registry/pods/ns/a<b>\u0000', revision: 42 });
  });

  for (const c of [
    { name: 'not base64url', token: 'a+b=', message: /^invalid continue token: continue key is not valid: illegal base64 data at input byte 1$/ },
    { name: 'not JSON', token: b64('nope'), message: /^invalid continue token: continue key is not valid: invalid character 'o' in literal null \(expecting 'u'\)$/ },
    { name: 'random text', token: 'abc', message: /^invalid continue token: continue key is not valid: invalid character 'i' looking for beginning of value$/ },
    { name: 'a dangling character', token: 'abcde', message: /^invalid continue token: continue key is not valid: illegal base64 data at input byte 4$/ },
    { name: 'a JSON list', token: b64('[]'), message: /continue key is not valid: json: cannot unmarshal array into Go value of type storage\.continueToken$/ },
    { name: 'a string revision', token: b64('{"v":"meta.k8s.io/v1","rv":"7","start":"a"}'),
      message: /continue key is not valid: json: cannot unmarshal string into Go struct field continueToken\.rv of type int64$/ },
    { name: 'unknown version', token: b64('{"v":"v2","rv":1,"start":"a"}'), message: /^invalid continue token: continue key is not valid: server does not recognize this encoded version v2$/ },
    { name: 'zero revision', token: b64('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}'), message: /incorrect encoded start resourceVersion \(version meta\.k8s\.io\/v1\)$/ },
    { name: 'empty start', token: b64('{"v":"meta.k8s.io/v1","rv":3,"start":""}'), message: /encoded start key empty \(version meta\.k8s\.io\/v1\)$/ },
    { name: 'path traversal', token: b64('{"v":"meta.k8s.io/v1","rv":3,"start":"../secrets"}'), message: /continue key is not valid: \.\.\/secrets$/ },
  ]) {
    it(`rejects a token that is ${c.name}`, () => {
      assert.throws(() => decodeContinue(c.token, '/registry/pods/'),
        (err: unknown) => isStorageError(err, 'InvalidContinue') && c.message.test(err.message));
    });
  }

  it('keeps a negative revision (continue at the newest revision)', () => {
    assert.deepEqual(decodeContinue(encodeContinue('/p/x', '/p/', -1), '/p/'), { key: '/p/x', revision: -1 });
  });
});
