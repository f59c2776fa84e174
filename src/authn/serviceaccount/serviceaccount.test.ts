import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  TOKEN_EXPIRED, TOKEN_INVALIDATED, TOKEN_NOT_VALID_YET, newServiceAccountTokenAuthenticator,
  type TokenObject, type TokenObjectKind,
} from './authenticator.ts';
import {
  NO_KEYS_ERROR, SIGNATURE_ERROR, loadOrCreateServiceAccountKey, newServiceAccountTokenIssuer, type ServiceAccountTokenRequest,
} from './issuer.ts';

const AUD = 'https://kubernetes.default.svc.cluster.local';
const issuer = newServiceAccountTokenIssuer();
const req: ServiceAccountTokenRequest = { namespace: 'ns', name: 'sa', uid: 'u1', audiences: [AUD], expirationSeconds: 3600 };
const NOW = 2_000_000_000; // seconds
const T = (offsetSeconds: number): string => new Date((NOW + offsetSeconds) * 1000).toISOString();

/** The live objects: `Kind/namespace/name` → object. */
type World = Record<string, TokenObject>;
const world: World = {
  'ServiceAccount/ns/sa': { uid: 'u1' },
  'Pod/ns/p': { uid: 'p1' },
  'Secret/ns/s': { uid: 's1' },
  'Node//n': { uid: 'n1' },
};

function authenticatorFor(objects: World, failKinds: readonly TokenObjectKind[] = []) {
  return newServiceAccountTokenAuthenticator({
    issuer, now: () => NOW,
    getter: {
      get: (kind, namespace, name) => failKinds.includes(kind)
        ? Promise.reject(new Error('etcd down'))
        : Promise.resolve(objects[`${kind}/${namespace}/${name}`]),
    },
  });
}

const issue = (over: Partial<ServiceAccountTokenRequest> = {}, atSeconds = NOW): string =>
  issuer.issue({ ...req, ...over }, atSeconds * 1000).token;
const pod = { boundObject: { kind: 'Pod', name: 'p', uid: 'p1' }, node: { name: 'n', uid: 'n1' } } as const;
const secret = { boundObject: { kind: 'Secret', name: 's', uid: 's1' } } as const;
const node = { boundObject: { kind: 'Node', name: 'n', uid: 'n1' } } as const;

describe('service account tokens', () => {
  it('carry kube claims', () => {
    const { token, expiresAt } = issuer.issue(req, 1_000_000_000_000);
    const claims = issuer.verify(token);
    assert.ok(claims !== undefined);
    assert.equal(claims.iss, AUD);
    assert.equal(claims.sub, 'system:serviceaccount:ns:sa');
    assert.deepEqual(claims.aud, [AUD]);
    assert.equal(claims.exp, 1_000_000_000 + 3600);
    assert.equal(claims.nbf, 1_000_000_000);
    assert.equal(expiresAt, claims.exp);
    assert.deepEqual(claims['kubernetes.io'], { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'u1' } });
  });

  it('name the bound object (and a pod\'s node) in kubernetes.io', () => {
    const claimsOf = (t: string): unknown => issuer.verify(t)?.['kubernetes.io'];
    const sa = { name: 'sa', uid: 'u1' };
    assert.deepEqual(claimsOf(issue(pod)), { namespace: 'ns', serviceaccount: sa, pod: { name: 'p', uid: 'p1' }, node: { name: 'n', uid: 'n1' } });
    assert.deepEqual(claimsOf(issue(secret)), { namespace: 'ns', serviceaccount: sa, secret: { name: 's', uid: 's1' } });
    assert.deepEqual(claimsOf(issue(node)), { namespace: 'ns', serviceaccount: sa, node: { name: 'n', uid: 'n1' } });
  });

  const tampered = (): string => {
    const [h, p, s = ''] = issue().split('.');
    return `${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
  };
  const deleted = (key: string, ago: number): World => ({ ...world, [key]: { uid: world[key]?.uid ?? '', deletionTimestamp: T(-ago) } });
  const without = (key: string): World => Object.fromEntries(Object.entries(world).filter(([k]) => k !== key));
  const recreated = (key: string, uid: string): World => ({ ...world, [key]: { uid } });

  const cases: {
    name: string; token: () => string; objects?: World; failKinds?: TokenObjectKind[]; audiences?: string[];
    error?: string; foreign?: boolean; extra?: Record<string, string[]>;
  }[] = [
    { name: 'valid', token: () => issue() },
    { name: 'valid for a requested audience', token: () => issue({ audiences: ['vault', AUD] }), audiences: ['vault'] },
    { name: 'not a JWT', token: () => 'abc', foreign: true },
    { name: 'another issuer', token: () => newServiceAccountTokenIssuer({ issuer: 'https://elsewhere' }).issue(req).token, foreign: true },
    { name: 'signed by another key', token: () => newServiceAccountTokenIssuer().issue(req, NOW * 1000).token, error: NO_KEYS_ERROR },
    { name: 'bad signature', token: tampered, error: SIGNATURE_ERROR },
    { name: 'another audience', token: () => issue({ audiences: ['x'] }),
      error: `token audiences ["x"] is invalid for the target audiences ["${AUD}"]` },
    { name: 'not for the audience asked', token: () => issue(), audiences: ['vault', 'other'],
      error: `token audiences ["${AUD}"] is invalid for the target audiences ["vault" "other"]` },
    { name: 'expired', token: () => issue({ expirationSeconds: 600 }, NOW - 661), error: TOKEN_EXPIRED },
    { name: 'expired within the leeway', token: () => issue({ expirationSeconds: 600 }, NOW - 659) },
    { name: 'nbf in the future', token: () => issue({}, NOW + 61), error: TOKEN_NOT_VALID_YET },
    { name: 'nbf within the leeway', token: () => issue({}, NOW + 59) },
    { name: 'service account deleted', token: () => issue(), objects: without('ServiceAccount/ns/sa'), error: 'serviceaccounts "sa" not found' },
    { name: 'service account recreated', token: () => issue(), objects: recreated('ServiceAccount/ns/sa', 'u2'),
      error: 'service account UID (u2) does not match claim (u1)' },
    { name: 'service account being deleted', token: () => issue(), objects: deleted('ServiceAccount/ns/sa', 61),
      error: 'service account ns/sa has been deleted' },
    { name: 'service account deletion within the leeway', token: () => issue(), objects: deleted('ServiceAccount/ns/sa', 59) },
    { name: 'pod-bound', token: () => issue(pod), extra: {
      'authentication.kubernetes.io/pod-name': ['p'], 'authentication.kubernetes.io/pod-uid': ['p1'],
      'authentication.kubernetes.io/node-name': ['n'], 'authentication.kubernetes.io/node-uid': ['n1'] } },
    { name: 'pod-bound, pod deleted', token: () => issue(pod), objects: without('Pod/ns/p'), error: TOKEN_INVALIDATED },
    { name: 'pod-bound, pod recreated', token: () => issue(pod), objects: recreated('Pod/ns/p', 'p2'),
      error: 'pod UID (p2) does not match service account pod ref claim (p1)' },
    { name: 'pod-bound, pod being deleted', token: () => issue(pod), objects: deleted('Pod/ns/p', 61), error: TOKEN_INVALIDATED },
    { name: 'pod-bound, pod lookup fails', token: () => issue(pod), failKinds: ['Pod'], error: TOKEN_INVALIDATED },
    { name: 'pod-bound, its node gone (information only)', token: () => issue(pod), objects: without('Node//n') },
    { name: 'secret-bound', token: () => issue(secret), extra: {} },
    { name: 'secret-bound, secret deleted', token: () => issue(secret), objects: without('Secret/ns/s'), error: TOKEN_INVALIDATED },
    { name: 'secret-bound, secret recreated', token: () => issue(secret), objects: recreated('Secret/ns/s', 's2'),
      error: 'secret UID (s2) does not match service account secret ref claim (s1)' },
    { name: 'secret-bound, secret being deleted', token: () => issue(secret), objects: deleted('Secret/ns/s', 61), error: TOKEN_INVALIDATED },
    { name: 'node-bound', token: () => issue(node), extra: {
      'authentication.kubernetes.io/node-name': ['n'], 'authentication.kubernetes.io/node-uid': ['n1'] } },
    { name: 'node-bound, node deleted', token: () => issue(node), objects: without('Node//n'), error: TOKEN_INVALIDATED },
    { name: 'node-bound, node recreated', token: () => issue(node), objects: recreated('Node//n', 'n2'),
      error: 'node UID (n2) does not match service account node ref claim (n1)' },
    { name: 'node-bound, node being deleted', token: () => issue(node), objects: deleted('Node//n', 61), error: TOKEN_INVALIDATED },
  ];
  for (const c of cases) {
    it(`authenticate: ${c.name}`, async () => {
      const authn = authenticatorFor(c.objects ?? world, c.failKinds);
      const result = authn.authenticateToken(c.token(), c.audiences);
      if (c.error !== undefined) {
        await assert.rejects(result, (err: unknown) => err instanceof Error && err.message === c.error);
        return;
      }
      const res = await result;
      if (c.foreign === true) {
        assert.equal(res, undefined);
        return;
      }
      assert.equal(res?.user.name, 'system:serviceaccount:ns:sa');
      assert.equal(res.user.uid, 'u1');
      assert.deepEqual(res.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns']);
      const { ['authentication.kubernetes.io/credential-id']: jti, ...extra } = res.user.extra ?? {};
      assert.match(jti?.[0] ?? '', /^JTI=[0-9a-f-]{36}$/);
      if (c.extra !== undefined) assert.deepEqual(extra, c.extra);
      assert.deepEqual(res.audiences, c.audiences ?? [AUD]);
    });
  }

  it('keeps its key in <dataDir>/pki/sa.key across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-sa-'));
    try {
      const first = newServiceAccountTokenIssuer({ privateKey: await loadOrCreateServiceAccountKey(dir) });
      const second = newServiceAccountTokenIssuer({ privateKey: await loadOrCreateServiceAccountKey(dir) });
      assert.ok(second.verify(first.issue(req).token) !== undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
