import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRequestPath } from './request-path.ts';

describe('decodeRequestPath (Go URL.Path of a request target)', () => {
  const cases = [
    { name: 'plain', in: '/api/v1/namespaces', want: '/api/v1/namespaces' },
    { name: 'query dropped', in: '/api/v1/pods?watch=1&x=%zz', want: '/api/v1/pods' },
    { name: 'dot segments kept', in: '/api/v1/namespaces/default/configmaps/..', want: '/api/v1/namespaces/default/configmaps/..' },
    { name: 'encoded dots decoded, not resolved', in: '/a/%2e%2E', want: '/a/..' },
    { name: 'encoded slash decoded', in: '/a/b%2Fc', want: '/a/b/c' },
    { name: 'encoded percent', in: '/a/%25', want: '/a/%' },
    { name: 'utf-8 escapes', in: '/a/%C3%A9', want: '/a/é' },
    { name: 'plus stays', in: '/a+b', want: '/a+b' },
    { name: 'double slash kept', in: '//[', want: '//[' },
    { name: 'absolute form', in: 'https://host:6443/api/v1?x=1', want: '/api/v1' },
    { name: 'malformed escape', in: '/a/%zz', want: undefined },
    { name: 'truncated escape', in: '/a/%4', want: undefined },
    { name: 'unparsable absolute form', in: 'http://[', want: undefined },
  ];
  for (const c of cases) it(c.name, () => assert.equal(decodeRequestPath(c.in), c.want));
});
