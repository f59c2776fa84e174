// Validators of k8s.io/apimachinery/pkg/util/validation that only networking needs: wildcard
// DNS names and domain-prefixed paths; plus kube's path-segment name check as plain messages.
import { invalid, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { validatePathSegmentName } from '../../apimachinery/validation/object-meta.ts';
import { byteLength, DNS1123_SUBDOMAIN_MAX_LENGTH, isDNS1123Subdomain, maxLenError, regexError } from '../../apimachinery/validation/validation.ts';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const wildcardFmt = `\\*\\.${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const wildcardRe = new RegExp(`^${wildcardFmt}$`);
const wildcardErrMsg = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!wildcardRe.test(value)) errs.push(regexError(wildcardErrMsg, wildcardFmt, '*.example.com'));
  return errs;
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

/** IsDomainPrefixedPath: "acme.io/foo". */
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

/** content.IsPathSegmentName. */
export const isPathSegmentName = (name: string): string[] => validatePathSegmentName(name, false);
