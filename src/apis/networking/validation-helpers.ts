// Validators of k8s.io/apimachinery/pkg/util/validation that only networking needs: wildcard
// DNS names; plus kube's path-segment name check as plain messages.
import { validatePathSegmentName } from '../../apimachinery/validation/object-meta.ts';
import { byteLength, DNS1123_SUBDOMAIN_MAX_LENGTH, maxLenError, regexError } from '../../apimachinery/validation/validation.ts';

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

/** content.IsPathSegmentName. */
export const isPathSegmentName = (name: string): string[] => validatePathSegmentName(name, false);
