import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newAdminTokenAuthenticator } from './admin.ts';
import { isAnonymousAllowedPath } from './anonymous.ts';
import type { AuthRequest, RequestHeaders } from './authenticator.ts';
import { INVALID_TOKEN_WITH_SPACE_WARNING } from './bearer-token.ts';
import { authenticateOrUnauthorized, newRequestAuthenticator } from './request-authenticator.ts';
import { newStaticTokenAuthenticator } from './token-file.ts';
import { isStatusError } from '../apimachinery/errors/status-error.ts';

const fileTokens = newStaticTokenAuthenticator(new Map([
  ['file-token', { name: 'jane', uid: '1', groups: ['dev'] }],
  ['authed', { name: 'svc', groups: ['system:authenticated'] }],
]));
const tokens = [newAdminTokenAuthenticator('admin-token'), fileTokens];
const withAnonymous = newRequestAuthenticator({ tokenAuthenticators: tokens, anonymous: true });
const noAnonymous = newRequestAuthenticator({ tokenAuthenticators: tokens, anonymous: false });
const wsProtocol = (token: string): string => `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`;
const ws = { connection: 'Upgrade', upgrade: 'websocket' };

describe('request authentication chain', () => {
  const cases: { name: string; headers: RequestHeaders; anonymous?: boolean; want: string | { name: string; groups: string[] } }[] = [
    { name: 'admin token', headers: { authorization: 'Bearer admin-token' },
      want: { name: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] } },
    { name: 'scheme is case-insensitive', headers: { authorization: 'bEaReR admin-token' },
      want: { name: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] } },
    { name: 'surrounding whitespace is trimmed', headers: { authorization: '  Bearer admin-token  ' },
      want: { name: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] } },
    { name: 'token file user', headers: { authorization: 'Bearer file-token' },
      want: { name: 'jane', groups: ['dev', 'system:authenticated'] } },
    { name: 'system:authenticated not added twice', headers: { authorization: 'Bearer authed' },
      want: { name: 'svc', groups: ['system:authenticated'] } },
    { name: 'websocket protocol token', headers: { ...ws, 'sec-websocket-protocol': `v4.channel.k8s.io, ${wsProtocol('file-token')}` },
      want: { name: 'jane', groups: ['dev', 'system:authenticated'] } },
    { name: 'no credentials is anonymous', headers: {},
      want: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
    { name: 'other scheme is anonymous', headers: { authorization: 'Basic YTpi' },
      want: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
    { name: 'bare Bearer is anonymous', headers: { authorization: 'Bearer' },
      want: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
    { name: 'websocket protocol without upgrade is ignored', headers: { 'sec-websocket-protocol': wsProtocol('file-token') },
      want: { name: 'system:anonymous', groups: ['system:unauthenticated'] } },
    { name: 'invalid token is never anonymous', headers: { authorization: 'Bearer wrong' }, want: 'Unauthorized' },
    { name: 'invalid websocket token', headers: { ...ws, 'sec-websocket-protocol': wsProtocol('wrong') }, want: 'Unauthorized' },
    { name: 'no credentials without anonymous', headers: {}, anonymous: false, want: 'Unauthorized' },
    { name: 'token is the second word only', headers: { authorization: 'Bearer admin-token extra' },
      want: { name: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const authn = c.anonymous === false ? noAnonymous : withAnonymous;
      const req: AuthRequest = { headers: c.headers };
      if (typeof c.want === 'string') {
        await assert.rejects(authenticateOrUnauthorized(authn, req), (err: unknown) => {
          assert.ok(isStatusError(err));
          assert.deepEqual(err.status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
            message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
          return true;
        });
      } else {
        const { user } = await authenticateOrUnauthorized(authn, req);
        assert.deepEqual({ name: user.name, groups: user.groups }, c.want);
      }
    });
  }

  it('warns about a space before the token and ignores the header', async () => {
    const warnings: string[] = [];
    const { user } = await authenticateOrUnauthorized(withAnonymous,
      { headers: { authorization: 'Bearer  admin-token' }, warnings: { addWarning: (w) => warnings.push(w) } });
    assert.equal(user.name, 'system:anonymous');
    assert.deepEqual(warnings, [INVALID_TOKEN_WITH_SPACE_WARNING]);
  });

  it('the raw authenticator rejects an invalid bearer token with kube\'s message', async () => {
    await assert.rejects(noAnonymous.authenticate({ headers: { authorization: 'Bearer nope' } }), { message: 'invalid bearer token' });
  });
});

describe('isAnonymousAllowedPath', () => {
  const cases: { name: string; path: string; method?: string; want: boolean }[] = [
    { name: 'healthz', path: '/healthz', want: true },
    { name: 'livez', path: '/livez', want: true },
    { name: 'readyz', path: '/readyz', want: true },
    { name: 'version', path: '/version', want: true },
    { name: 'version with slash', path: '/version/', want: true },
    { name: 'healthz subpath is not public', path: '/healthz/etcd', want: false },
    { name: 'api', path: '/api', want: false },
    { name: 'root', path: '/', want: false },
    { name: 'POST is not granted', path: '/healthz', method: 'POST', want: false },
    { name: 'HEAD is not granted', path: '/version', method: 'HEAD', want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isAnonymousAllowedPath(c.path, c.method), c.want));
});
