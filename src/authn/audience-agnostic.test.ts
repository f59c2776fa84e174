import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withImplicitAudiences } from './audience-agnostic.ts';
import { newStaticTokenAuthenticator } from './token-file.ts';

const API = 'https://kubernetes.default.svc.cluster.local';
const authn = withImplicitAudiences([API], newStaticTokenAuthenticator(new Map([['secret', { name: 'jane', groups: [] }]])));

describe('audience-agnostic tokens', () => {
  const cases = [
    { name: 'no audience asked: valid', audiences: undefined, want: { user: 'jane', audiences: undefined } },
    { name: 'the API audience: valid for it', audiences: [API], want: { user: 'jane', audiences: [API] } },
    { name: 'the API audience among others: valid for it only', audiences: ['vault', API], want: { user: 'jane', audiences: [API] } },
    { name: 'another audience: not this token\'s', audiences: ['vault'], want: undefined },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await authn.authenticateToken('secret', c.audiences);
      assert.deepEqual(res === undefined ? undefined : { user: res.user.name, audiences: res.audiences }, c.want);
    });
  }
  it('an unknown token stays unknown', async () => {
    assert.equal(await authn.authenticateToken('nope', [API]), undefined);
  });
});
