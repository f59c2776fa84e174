import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newBootstrapTokenAuthenticator, type BootstrapSecret } from './bootstrap-token.ts';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const data = (over: Record<string, string | undefined> = {}): Record<string, string> => {
  const d: Record<string, string | undefined> = {
    'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true',
    'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a', ...over,
  };
  return Object.fromEntries(Object.entries(d).filter((e): e is [string, string] => e[1] !== undefined).map(([k, v]) => [k, b64(v)]));
};
const secret = (over: Partial<BootstrapSecret> = {}, d: Record<string, string | undefined> = {}): BootstrapSecret =>
  ({ type: 'bootstrap.kubernetes.io/token', data: data(d), ...over });

describe('bootstrap token authenticator', () => {
  const TOKEN = 'abcdef.0123456789abcdef';
  const cases: { name: string; token?: string; secret?: BootstrapSecret; want: unknown }[] = [
    { name: 'valid: groups sorted, system:bootstrappers first', secret: secret(),
      want: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:worker'] } },
    { name: 'not yet expired', secret: secret({}, { expiration: '2030-01-01T00:00:01Z' }), want: 'system:bootstrap:abcdef' },
    { name: 'expired', secret: secret({}, { expiration: '2029-12-31T23:59:59Z' }), want: undefined },
    { name: 'unparsable expiration counts as expired', secret: secret({}, { expiration: 'tomorrow' }), want: undefined },
    { name: 'not of the token form', token: 'abcdef.0123', secret: secret(), want: undefined },
    { name: 'upper case is not the token form', token: 'ABCDEF.0123456789abcdef', secret: secret(), want: undefined },
    { name: 'no such secret', want: undefined },
    { name: 'being deleted', secret: secret({ deletionTimestamp: '2029-01-01T00:00:00Z' }), want: undefined },
    { name: 'another type', secret: secret({ type: 'Opaque' }), want: undefined },
    { name: 'wrong secret', secret: secret({}, { 'token-secret': '0123456789abcdeX' }), want: undefined },
    { name: 'token-id differs', secret: secret({}, { 'token-id': 'zzzzzz' }), want: undefined },
    { name: 'not for authentication', secret: secret({}, { 'usage-bootstrap-authentication': 'false' }), want: undefined },
    { name: 'an extra group outside system:bootstrappers:', secret: secret({}, { 'auth-extra-groups': 'system:masters' }), want: undefined },
    { name: 'no extra groups', secret: secret({}, { 'auth-extra-groups': undefined }), want: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const looked: string[] = [];
      const a = newBootstrapTokenAuthenticator({
        get: (ns, name) => { looked.push(`${ns}/${name}`); return Promise.resolve(c.secret); },
      }, () => NOW);
      const user = (await a.authenticateToken(c.token ?? TOKEN))?.user;
      if (typeof c.want === 'string') assert.equal(user?.name, c.want);
      else assert.deepEqual(user, c.want);
      if (c.token === undefined) assert.deepEqual(looked, ['kube-system/bootstrap-token-abcdef']);
    });
  }

  it('a store that cannot answer is an error, not an unknown token', async () => {
    const a = newBootstrapTokenAuthenticator({ get: () => Promise.reject(new Error('etcd down')) });
    await assert.rejects(a.authenticateToken(TOKEN), /etcd down/);
  });
});
