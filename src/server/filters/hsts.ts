// --strict-transport-security-directives: every answer carries Strict-Transport-Security with the
// directives joined by "; ", unless a handler set its own. Without directives the filter is not
// in the chain.
// Counterpart of k8s.io/apiserver/pkg/server/filters/hsts.go and validateHSTSDirectives of
// k8s.io/apiserver/pkg/server/options/server_run_options.go.
import type { Filter } from './types.ts';

/** kube's start-up check: each directive is includeSubDomains, preload or max-age=<value>. */
export function validateHSTSDirectives(directives: readonly string[]): string[] {
  const errs: string[] = [];
  for (const d of directives) {
    if (d.trim().length === 0) { errs.push('empty value in strict-transport-security-directives'); continue; }
    if (d === 'includeSubDomains' || d === 'preload') continue;
    const parts = d.split('=');
    if (parts.length !== 2 || parts[0] !== 'max-age') {
      errs.push('--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information');
    }
  }
  return errs;
}

export function withHSTS(directives: readonly string[]): Filter | undefined {
  if (directives.length === 0) return undefined;
  const value = directives.join('; ');
  return (next) => async (req, res, state) => {
    if (!res.hasHeader('Strict-Transport-Security')) res.setHeader('Strict-Transport-Security', value);
    await next(req, res, state);
  };
}
