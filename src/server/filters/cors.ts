// --cors-allowed-origins: a request whose Origin matches one of the patterns gets the CORS
// headers, and a preflight (OPTIONS) from such an origin is answered 204 before authentication.
// An origin that matches nothing is served as if it sent no Origin (no CORS headers; the browser
// refuses it). Without patterns the filter is not in the chain at all.
// Counterpart of k8s.io/apiserver/pkg/server/filters/cors.go (WithCORS with kube-apiserver's
// arguments: the default methods and headers, credentials allowed) and the flag check of
// k8s.io/apiserver/pkg/server/options/server_run_options.go (validateCorsAllowedOriginList).
import type { Filter } from './types.ts';

const ALLOW_METHODS = 'POST, GET, OPTIONS, PUT, DELETE, PATCH';
const ALLOW_HEADERS = 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since';
const EXPOSE_HEADERS = 'Date';

export const CORS_ALLOWED_ORIGINS_HELP = 'List of allowed origins for CORS, comma separated. ' +
  'An allowed origin can be a regular expression to support subdomain matching. ' +
  'If this list is empty CORS will not be enabled. ' +
  'Please ensure each expression matches the entire hostname by anchoring ' +
  "to the start with '^' or including the '//' prefix, and by anchoring to the " +
  "end with '$' or including the ':' port separator suffix. " +
  "Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

/**
 * kube's start-up check of --cors-allowed-origins: each entry non-empty, a valid regular
 * expression, and pinned at both ends of the host ('^' or '//' before, '$' or ':' after).
 * Returns one message per bad entry.
 */
export function validateCORSAllowedOrigins(patterns: readonly string[]): string[] {
  const errs: string[] = [];
  for (const p of patterns) {
    if (p.length === 0) {
      errs.push(`empty value in --cors-allowed-origins, help: ${CORS_ALLOWED_ORIGINS_HELP}`);
      continue;
    }
    let why: string | undefined;
    try {
      new RegExp(p);
      const pinStart = p.includes('^') || p.includes('//');
      const pinEnd = p.includes('$') || p.includes(':');
      if (!pinStart || !pinEnd) why = 'regular expression does not pin to start/end of host in the origin header';
    } catch (err) {
      // Go names its parser; JavaScript's message follows.
      why = `error parsing regexp: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (why !== undefined) errs.push(`--cors-allowed-origins has an invalid regular expression: ${why}, help: ${CORS_ALLOWED_ORIGINS_HELP}`);
  }
  return errs;
}

/** The filter, or undefined when no origin is allowed (kube then leaves it out of the chain). */
export function withCORS(allowedOrigins: readonly string[]): Filter | undefined {
  if (allowedOrigins.length === 0) return undefined;
  const res = allowedOrigins.map((p) => new RegExp(p));
  return (next) => async (req, res_, state) => {
    const origin = req.headers.origin;
    if (origin === undefined || origin === '' || !res.some((re) => re.test(origin))) return next(req, res_, state);
    res_.setHeader('Access-Control-Allow-Origin', origin);
    res_.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
    res_.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res_.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    res_.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS') {
      res_.statusCode = 204;
      res_.end();
      return;
    }
    await next(req, res_, state);
  };
}
