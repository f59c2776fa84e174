// Webhook token authentication (--authentication-token-webhook-config-file): a bearer token no
// other authenticator knows is sent to a remote service in a TokenReview (v1 or v1beta1) with the
// audiences it must be for; an authenticated answer gives the user (name, uid, groups, extra) and
// the audiences it holds for (the API audiences when it names none). A failed call is tried
// again on errors worth retrying; answers (not errors) are cached for --authentication-token-webhook-cache-ttl.
// Counterpart of k8s.io/apiserver/plugin/pkg/authenticator/token/webhook/webhook.go and
// newWebhookTokenAuthenticator in pkg/kubeapiserver/authenticator/config.go.
import {
  ClientManager, DEFAULT_AUTH_WEBHOOK_BACKOFF, loadWebhookKubeconfig, withExponentialBackoff, type Backoff, type WebhookClient,
} from '../webhook/index.ts';
import type { AuthResponse, TokenAuthenticator } from './authenticator.ts';
import { newCachedTokenAuthenticator } from './token-cache.ts';

export type TokenReviewVersion = 'v1' | 'v1beta1';

/** kube's defaults of --authentication-token-webhook-version and -cache-ttl. */
export const DEFAULT_TOKEN_WEBHOOK_VERSION = 'v1beta1';
export const DEFAULT_TOKEN_WEBHOOK_CACHE_TTL_MS = 120_000;

export interface WebhookTokenOptions {
  readonly client: WebhookClient;
  readonly version: TokenReviewVersion;
  /** The server's API audiences: what an answer without audiences is taken to hold for. */
  readonly implicitAudiences: readonly string[];
  readonly backoff?: Backoff;
}

type Obj = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The uncached authenticator (WebhookTokenAuthenticator). */
export function newWebhookTokenAuthenticator(opts: WebhookTokenOptions): TokenAuthenticator {
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthResponse | undefined> {
      const spec: Record<string, unknown> = { token };
      if (audiences !== undefined && audiences.length > 0) spec['audiences'] = [...audiences];
      const body = {
        kind: 'TokenReview', apiVersion: `authentication.k8s.io/${opts.version}`, metadata: {},
        spec, status: { user: {} },
      };
      let review: Record<string, unknown>;
      try {
        review = await withExponentialBackoff(opts.backoff ?? DEFAULT_AUTH_WEBHOOK_BACKOFF, () => opts.client.post(body));
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        console.error(`Failed to make webhook authenticator request: ${error.message}`);
        throw error;
      }
      const status = isObj(review['status']) ? review['status'] : {};
      let auds: string[] | undefined;
      if (audiences !== undefined && audiences.length > 0) {
        const got = strings(status['audiences']);
        const holds = got.length > 0 ? got : opts.implicitAudiences;
        auds = audiences.filter((a) => holds.includes(a));
        if (auds.length === 0) return undefined;
      }
      if (status['authenticated'] !== true) {
        const e = typeof status['error'] === 'string' ? status['error'] : '';
        if (e !== '') throw new Error(e);
        return undefined;
      }
      const u = isObj(status['user']) ? status['user'] : {};
      const extraIn = isObj(u['extra']) ? u['extra'] : undefined;
      const user = {
        name: typeof u['username'] === 'string' ? u['username'] : '',
        ...(typeof u['uid'] === 'string' && u['uid'] !== '' ? { uid: u['uid'] } : {}),
        groups: strings(u['groups']),
        ...(extraIn !== undefined ? { extra: Object.fromEntries(Object.entries(extraIn).map(([k, v]) => [k, strings(v)])) } : {}),
      };
      return { user, ...(auds !== undefined ? { audiences: auds } : {}) };
    },
  };
}

/**
 * newWebhookTokenAuthenticator of kube-apiserver: reads the kubeconfig, and caches answers
 * (authenticated or not, never errors) for `cacheTTLMs`. Rejects with client-go's loading errors
 * and `unsupported authentication webhook version "x", supported versions are "v1", "v1beta1"`.
 */
export async function loadWebhookTokenAuthenticator(
  configFile: string, version: string, cacheTTLMs: number, implicitAudiences: readonly string[], backoff?: Backoff,
): Promise<TokenAuthenticator> {
  const cc = await loadWebhookKubeconfig(configFile, 'webhook-token-authenticator');
  if (version !== 'v1' && version !== 'v1beta1') {
    throw new Error(`unsupported authentication webhook version "${version}", supported versions are "v1", "v1beta1"`);
  }
  const inner = newWebhookTokenAuthenticator({
    client: new ClientManager().hookClient(cc), version, implicitAudiences, ...(backoff !== undefined ? { backoff } : {}),
  });
  return newCachedTokenAuthenticator(inner, { successTTLMs: cacheTTLMs, failureTTLMs: cacheTTLMs });
}
