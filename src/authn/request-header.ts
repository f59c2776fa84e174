// Request-header authentication for front proxies (--requestheader-*): a proxy whose client
// certificate chains to --requestheader-client-ca-file (and whose CN is in
// --requestheader-allowed-names, when given) names the user in headers: the first non-empty
// username header, the first non-empty UID header, every value of every group header, and extras
// from the headers under each prefix (the rest of the name, lower case and %-unescaped, is the key).
// The headers are removed once read.
// Counterpart of k8s.io/apiserver/pkg/authentication/request/headerrequest.
import type { AuthRequest, AuthResponse, Authenticator, RequestHeaders } from './authenticator.ts';
import { newX509Verifier, type CAProvider } from './x509.ts';

export interface RequestHeaderConfig {
  readonly usernameHeaders: readonly string[];
  readonly uidHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
  readonly allowedNames: readonly string[];
}

/** Every value of a header: one per line when the request can tell them apart (AuthRequest.headerValues). */
const valuesOf = (req: AuthRequest) => (headers: RequestHeaders, name: string): string[] => {
  if (req.headerValues !== undefined) return [...req.headerValues(name)];
  const v = headers[name.toLowerCase()];
  if (v === undefined) return [];
  return typeof v === 'string' ? [v] : [...v];
};

function firstValue(values: ReturnType<typeof valuesOf>, headers: RequestHeaders, names: readonly string[]): string {
  for (const n of names) {
    const v = values(headers, n)[0];
    if (v !== undefined && v !== '') return v;
  }
  return '';
}

/** Go's url.PathUnescape, keeping the raw key when it is malformed (as kube does). */
function unescapeExtraKey(key: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(key)) return key;
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** The header-reading half: who the headers name (no certificate check). */
export function newRequestHeaderReader(cfg: Omit<RequestHeaderConfig, 'allowedNames'>): Authenticator {
  return {
    authenticate(req: AuthRequest): Promise<AuthResponse | undefined> {
      const h = req.headers;
      const values = valuesOf(req);
      const name = firstValue(values, h, cfg.usernameHeaders);
      if (name === '') return Promise.resolve(undefined);
      const uid = firstValue(values, h, cfg.uidHeaders);
      const groups = cfg.groupHeaders.flatMap((g) => values(h, g).filter((v) => v !== ''));
      const extra: Record<string, string[]> = {};
      for (const prefix of cfg.extraHeaderPrefixes) {
        const p = prefix.toLowerCase();
        for (const header of Object.keys(h)) {
          if (!header.startsWith(p)) continue;
          const key = unescapeExtraKey(header.slice(p.length));
          (extra[key] ??= []).push(...values(h, header));
        }
      }
      req.removeHeaders?.([...cfg.usernameHeaders, ...cfg.uidHeaders, ...cfg.groupHeaders], cfg.extraHeaderPrefixes);
      // Keys in sorted order, as Go's JSON encoder writes a map (SelfSubjectReview, TokenReview).
      const sorted = Object.fromEntries(Object.entries(extra).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      return Promise.resolve({ user: { name, ...(uid !== '' ? { uid } : {}), groups, extra: sorted } });
    },
  };
}

/** The whole front-proxy authenticator: certificate check first, then the headers. */
export function newRequestHeaderAuthenticator(roots: CAProvider, cfg: RequestHeaderConfig): Authenticator {
  return newX509Verifier(roots, cfg.allowedNames, newRequestHeaderReader(cfg));
}

/** kube's checks of the --requestheader-* flags (RequestHeaderAuthenticationOptions.Validate). */
export function validateRequestHeaderFlags(cfg: RequestHeaderConfig): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const blank = (flag: string, xs: readonly string[]): void => {
    if (xs.some((x) => x.trim() === '')) errors.push(`empty value in "${flag}"`);
  };
  const has = (xs: readonly string[], want: string): boolean => xs.some((x) => x.toLowerCase() === want.toLowerCase());
  blank('requestheader-username-headers', cfg.usernameHeaders);
  blank('requestheader-group-headers', cfg.groupHeaders);
  blank('requestheader-extra-headers-prefix', cfg.extraHeaderPrefixes);
  blank('requestheader-allowed-names', cfg.allowedNames);
  if (cfg.usernameHeaders.length > 0 && !has(cfg.usernameHeaders, 'X-Remote-User')) {
    warnings.push('--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work');
  }
  if (cfg.groupHeaders.length > 0 && !has(cfg.groupHeaders, 'X-Remote-Group')) {
    warnings.push('--requestheader-group-headers is set without specifying the standard X-Remote-Group header - API aggregation will not work');
  }
  if (cfg.extraHeaderPrefixes.length > 0 && !has(cfg.extraHeaderPrefixes, 'X-Remote-Extra-')) {
    warnings.push('--requestheader-extra-headers-prefix is set without specifying the standard X-Remote-Extra- header prefix - API aggregation will not work');
  }
  // RemoteRequestHeaderUID is beta and on in v1.36.
  blank('requestheader-uid-headers', cfg.uidHeaders);
  if (cfg.uidHeaders.length > 0 && !has(cfg.uidHeaders, 'X-Remote-Uid')) {
    errors.push('--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work');
  }
  return { errors, warnings };
}
