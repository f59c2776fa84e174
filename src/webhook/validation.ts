// Validation of a webhook's client configuration, shared by admission webhook configurations
// and CRD conversion webhooks.
// Counterpart of k8s.io/apiserver/pkg/util/webhook/validation.go.
import { X509Certificate } from 'node:crypto';
import { invalid, required, type FieldError, type FieldPath } from '../apimachinery/errors/field-errors.ts';
import { isDNS1123Subdomain, isValidPortNum } from '../apimachinery/validation/validation.ts';
import { parseGoURL } from './go-url.ts';

const FORM = '; desired format: https://host[/path]';

/**
 * ValidateCABundle: a non-empty bundle (base64 on the wire) must hold PEM certificates, as
 * client-go's transport requires to build a TLS config from it.
 */
export function validateCABundle(p: FieldPath, caBundle: string | undefined): FieldError[] {
  const err = caBundleError(caBundle);
  return err === undefined ? [] : [invalid(p, caBundle ?? '', err)];
}

/** The transport's error for a CA bundle, or undefined when it is empty or usable. */
export function caBundleError(caBundle: string | undefined): string | undefined {
  if (caBundle === undefined || caBundle === '') return undefined;
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  const blocks = [...pem.matchAll(/-----BEGIN ([^-]*)-----[\s\S]*?-----END [^-]*-----/g)];
  if (blocks.length === 0) return 'unable to load root certificates: unable to parse bytes as PEM block';
  for (const b of blocks) {
    if (b[1] !== 'CERTIFICATE') continue;
    try { new X509Certificate(b[0]); } catch {
      return 'unable to load root certificates: failed to parse certificate';
    }
  }
  if (!blocks.some((b) => b[1] === 'CERTIFICATE')) return 'unable to load root certificates: no valid certificate authority data seen';
  return undefined;
}

/** ValidateWebhookURL: a URL with a host, without user, query or fragment; https when `forceHttps`. */
export function validateWebhookURL(p: FieldPath, raw: string, forceHttps: boolean): FieldError[] {
  const u = parseGoURL(raw);
  if (typeof u === 'string') return [required(p, `url must be a valid URL: ${u}${FORM}`)];
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(p, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') errs.push(invalid(p, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined) errs.push(invalid(p, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalid(p, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(invalid(p, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService: name, namespace, a valid port, and a path of DNS-subdomain segments. */
export function validateWebhookService(p: FieldPath, namespace: string, name: string, path: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(required(p.child('name'), ''));
  if (namespace === '') errs.push(required(p.child('namespace'), ''));
  for (const m of isValidPortNum(port)) errs.push(invalid(p.child('port'), port, `port is not valid: ${m}`));
  if (path === undefined || path === '' || path === '/') return errs;
  if (path === '//') return [...errs, invalid(p.child('path'), path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalid(p.child('path'), path, "must start with a '/'"));
  // kube drops the first character whatever it is, and one trailing slash
  let rest = path.slice(1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (step === '') errs.push(invalid(p.child('path'), path, `segment[${i}] may not be empty`));
    else for (const m of isDNS1123Subdomain(step)) errs.push(invalid(p.child('path'), path, `segment[${i}]: ${m}`));
  });
  return errs;
}
