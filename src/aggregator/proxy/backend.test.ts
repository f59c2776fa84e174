import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { BackendClients, headerKeyEscape, setAuthProxyHeaders, TransportBuildError } from './backend.ts';
import { goQueryEncode } from './handler.ts';

describe('headerKeyEscape (client-go transport)', () => {
  const cases = [
    { name: 'token characters stay', key: 'scopes', want: 'scopes' },
    { name: 'a slash is escaped', key: 'example.com/team', want: 'example.com%2Fteam' },
    { name: 'a percent is escaped', key: 'a%b', want: 'a%25b' },
    { name: 'a space is escaped', key: 'a b', want: 'a%20b' },
    { name: 'non-ASCII bytes are escaped one by one', key: 'é', want: '%C3%A9' },
  ];
  for (const c of cases) it(c.name, () => { assert.equal(headerKeyEscape(c.key), c.want); });
});

describe('setAuthProxyHeaders', () => {
  it('drops what the caller sent under X-Remote-* and names the user, uid, groups and extras', () => {
    const h: OutgoingHttpHeaders = { 'X-Remote-User': 'mallory', 'x-remote-extra-evil': 'yes', 'X-Remote-Group': 'system:masters', accept: 'a' };
    setAuthProxyHeaders(h, { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { 'example.com/team': ['blue', 'red'] } });
    assert.deepEqual(h, {
      accept: 'a', 'x-remote-user': 'alice', 'x-remote-uid': 'u-1', 'x-remote-group': ['devs', 'system:authenticated'],
      'x-remote-extra-example.com%2fteam': ['blue', 'red'],
    });
  });
  it('sends no uid or group header when there is none', () => {
    assert.deepEqual(setAuthProxyHeaders({}, { name: 'bob', groups: [] }), { 'x-remote-user': 'bob' });
  });
});

describe('goQueryEncode (url.Values.Encode of Go\'s parse)', () => {
  const cases = [
    { name: 'keys sorted, values of a key in order', raw: 'b=2&a=1&a=0', want: 'a=1&a=0&b=2' },
    { name: 'escapes re-encoded as QueryEscape', raw: 'fieldSelector=metadata.name%3Dx&labelSelector=a+in+(b)', want: 'fieldSelector=metadata.name%3Dx&labelSelector=a+in+%28b%29' },
    { name: 'pairs with a semicolon dropped', raw: 'a;b=1&c=2', want: 'c=2' },
    { name: 'a bad escape dropped', raw: 'a=%zz&b=1', want: 'b=1' },
    { name: 'a key without value', raw: 'watch', want: 'watch=' },
    { name: 'empty', raw: '', want: '' },
  ];
  for (const c of cases) it(c.name, () => { assert.equal(goQueryEncode(c.raw), c.want); });
});

describe('BackendClients.agentFor', () => {
  const clients = new BackendClients({ resolveEndpoint: () => Promise.reject(new Error('unused')) });
  it('refuses a caBundle that holds no certificate with transport.New\'s error', () => {
    assert.throws(() => clients.agentFor({ service: { namespace: 'n', name: 's' }, caBundle: Buffer.from('not pem').toString('base64') }),
      (e: unknown) => e instanceof TransportBuildError && e.message === 'unable to load root certificates: unable to parse bytes as PEM block');
  });
  it('shares one agent per TLS setting', () => {
    const a = clients.agentFor({ service: { namespace: 'n', name: 's' }, insecureSkipTLSVerify: true });
    assert.equal(clients.agentFor({ service: { namespace: 'n', name: 's' }, insecureSkipTLSVerify: true }), a);
    assert.notEqual(clients.agentFor({ service: { namespace: 'n', name: 't' }, insecureSkipTLSVerify: true }), a);
    clients.close();
  });
});
