// IsDomainPrefixedPath of k8s.io/apimachinery/pkg/util/validation: "acme.io/foo", a DNS subdomain,
// a slash and an HTTP path (a Job's managedBy, an IngressClass's controller).
import { invalid, required, type FieldError, type FieldPath } from '../errors/field-errors.ts';
import { isDNS1123Subdomain, regexError } from './validation.ts';

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

export function isDomainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!httpPathRe.test(rest)) errs.push(invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  return errs;
}
