// Label key and value checks with the messages of k8s.io/apimachinery/pkg/api/validate/content
// (IsLabelKey a.k.a. IsQualifiedName, IsLabelValue, IsDNS1123Subdomain).

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyRe = new RegExp(`^${labelKeyFmt}$`);
const labelKeyErr = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyMaxLength = 63;

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
const labelValueErr = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LABEL_VALUE_MAX_LENGTH = 63;

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1123SubdomainErr = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/** content.RegexError: the message, examples, and the pattern. */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${re}')`;
}

export const maxLenError = (n: number): string => `must be no more than ${n} bytes`;
export const EMPTY_ERROR = 'must be non-empty';

/** Length in bytes, as Go's len(string). */
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErr, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** Errors for a label key (`[prefix/]name`); empty when valid. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a valid label key ${regexError(labelKeyErr, labelKeyFmt, 'MyName', 'my.name', '123-abc')}` +
      " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (byteLength(name) > labelKeyMaxLength) errs.push(`name part ${maxLenError(labelKeyMaxLength)}`);
  if (!labelKeyRe.test(name)) errs.push(`name part ${regexError(labelKeyErr, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** Errors for a label value; empty when valid (the empty string is valid). */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErr, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}
