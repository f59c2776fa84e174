// Where a webhook lives: a URL, or a Service reference, plus the CA bundle that verifies it.
// Counterpart of ClientConfig and ClientConfigService in k8s.io/apiserver/pkg/util/webhook/client.go.

/** A Service reference of a webhook; `port` defaults to 443, `path` to `/`. */
export interface ClientConfigService {
  readonly namespace: string;
  readonly name: string;
  readonly path?: string;
  readonly port?: number;
}

/**
 * A webhook's client configuration. `name` only names the webhook in error messages (two
 * webhooks with the same address share one client). `caBundle` is the base64 text of the
 * API objects' `caBundle` field (PEM certificates once decoded); empty means the system roots.
 */
export interface ClientConfig {
  readonly name: string;
  readonly url?: string;
  readonly caBundle?: string;
  readonly service?: ClientConfigService;
  /** Client credentials and TLS options from a kubeconfig (authentication and authorization webhooks). */
  readonly credentials?: ClientCredentials;
}

/** What a kubeconfig's cluster and user add to a webhook's connection (rest.Config's TLS and auth). */
export interface ClientCredentials {
  /** PEM client certificate and key. */
  readonly certPEM?: string;
  readonly keyPEM?: string;
  readonly bearerToken?: string;
  readonly basicAuth?: { readonly username: string; readonly password: string };
  readonly insecureSkipTLSVerify?: boolean;
  /** The name TLS verifies instead of the URL's host (tls-server-name). */
  readonly serverName?: string;
}

/** The wire shape shared by admissionregistration's and apiextensions' WebhookClientConfig. */
export interface WebhookClientConfigWire {
  readonly url?: string | null;
  readonly caBundle?: string | null;
  readonly service?: {
    readonly namespace?: string;
    readonly name?: string;
    readonly path?: string | null;
    readonly port?: number | null;
  } | null;
}

/** A ClientConfig from an API object's clientConfig (as the admission and conversion code build theirs). */
export function clientConfigFromWire(name: string, wire: WebhookClientConfigWire): ClientConfig {
  const out: { -readonly [K in keyof ClientConfig]: ClientConfig[K] } = { name };
  if (typeof wire.url === 'string') out.url = wire.url;
  // A bundle of only whitespace counts as none (the conversion webhook code does the same).
  if (typeof wire.caBundle === 'string' && wire.caBundle !== '') out.caBundle = wire.caBundle;
  const svc = wire.service;
  if (svc !== undefined && svc !== null) {
    const s: { -readonly [K in keyof ClientConfigService]: ClientConfigService[K] } = {
      namespace: svc.namespace ?? '', name: svc.name ?? '',
    };
    if (typeof svc.path === 'string') s.path = svc.path;
    if (typeof svc.port === 'number') s.port = svc.port;
    out.service = s;
  }
  return out;
}

/** The part of a config that decides the client: everything but the name (the cache key). */
export function clientConfigKey(cc: ClientConfig): string {
  const s = cc.service;
  return JSON.stringify([cc.url ?? '', cc.caBundle ?? '',
    s === undefined ? null : [s.namespace, s.name, s.path ?? '', s.port ?? 0], cc.credentials ?? null]);
}
