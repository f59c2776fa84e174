// Bootstrap tokens (--enable-bootstrap-token-auth): `<id>.<secret>` matched against the Secret
// kube-system/bootstrap-token-<id> of type bootstrap.kubernetes.io/token, which must allow
// authentication and not be expired. The user is system:bootstrap:<id> in system:bootstrappers
// plus the Secret's auth-extra-groups. A token that does not match is not an error: it is simply
// not this authenticator's, so the next one is tried (kube logs the reason at -v=3).
// Counterpart of plugin/pkg/auth/authenticator/token/bootstrap/bootstrap.go and
// k8s.io/cluster-bootstrap/util/secrets.
import { timingSafeEqual } from 'node:crypto';
import type { AuthResponse, TokenAuthenticator } from './authenticator.ts';

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
const TOKEN_RE = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const GROUP_RE = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** What the authenticator needs of a Secret (data base64-encoded, as stored). */
export interface BootstrapSecret {
  readonly type?: string | undefined;
  readonly data?: Readonly<Record<string, string>> | undefined;
  readonly deletionTimestamp?: string | undefined;
}

export interface SecretGetter {
  /** The Secret, or undefined when it does not exist; rejects when storage cannot answer. */
  get(namespace: string, name: string): Promise<BootstrapSecret | undefined>;
}

const value = (s: BootstrapSecret, key: string): string => {
  const v = s.data?.[key];
  return v === undefined ? '' : Buffer.from(v, 'base64').toString('utf8');
};

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An expiration that does not parse counts as expired, as in kube. */
function expired(s: BootstrapSecret, now: number): boolean {
  const e = value(s, 'expiration');
  if (e === '') return false;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(e)) return true;
  const t = Date.parse(e);
  return Number.isNaN(t) || now >= t;
}

/** system:bootstrappers and the extra groups, sorted and deduplicated; undefined when one is malformed. */
function groups(s: BootstrapSecret): string[] | undefined {
  const set = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = value(s, 'auth-extra-groups');
  if (extra !== '') {
    for (const g of extra.split(',')) {
      if (!GROUP_RE.test(g)) return undefined;
      set.add(g);
    }
  }
  return [...set].sort();
}

export function newBootstrapTokenAuthenticator(secrets: SecretGetter, now: () => number = Date.now): TokenAuthenticator {
  return {
    async authenticateToken(token: string): Promise<AuthResponse | undefined> {
      const m = TOKEN_RE.exec(token);
      if (m === null) return undefined;
      const [, id = '', secret = ''] = m;
      const s = await secrets.get('kube-system', `bootstrap-token-${id}`);
      if (s === undefined || (s.deletionTimestamp ?? '') !== '') return undefined;
      if (s.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || s.data === undefined) return undefined;
      if (!sameSecret(value(s, 'token-secret'), secret)) return undefined;
      if (value(s, 'token-id') !== id) return undefined;
      if (expired(s, now())) return undefined;
      if (value(s, 'usage-bootstrap-authentication') !== 'true') return undefined;
      const gs = groups(s);
      if (gs === undefined) return undefined;
      return { user: { name: `${BOOTSTRAP_USER_PREFIX}${id}`, groups: gs } };
    },
  };
}
