// ValidateSignerName (pkg/apis/core/validation): "<fqdn>/<path>" with DNS labels in the domain
// and DNS subdomains in the path, at most 571 characters.
import { invalid, required, tooLong, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/validation.ts';

const MAX_DOMAIN = 253;
const MAX_SIGNER_NAME = MAX_DOMAIN + (253 + 63 + 1) + 1;

export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  if (signerName.length === 0) return [required(path, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain = '', rest = ''] = segments;
  const errs: FieldError[] = [];
  if (domain.length > MAX_DOMAIN) errs.push(tooLong(path, '', MAX_DOMAIN));
  const labels = domain.split('.');
  for (const lbl of labels) {
    const msgs = isDNS1123Label(lbl);
    if (msgs.length > 0) { for (const m of msgs) errs.push(invalid(path, domain, `validating label ${JSON.stringify(lbl)}: ${m}`)); break; }
  }
  if (labels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const lbl of rest.split('.')) {
    const msgs = isDNS1123Subdomain(lbl);
    if (msgs.length > 0) { for (const m of msgs) errs.push(invalid(path, rest, `validating label ${JSON.stringify(lbl)}: ${m}`)); break; }
  }
  if (signerName.length > MAX_SIGNER_NAME) errs.push(tooLong(path, '', MAX_SIGNER_NAME));
  return errs;
}
