// Name and value validators of k8s.io/apimachinery/pkg/util/validation (and api/validate/content).
// Each returns the list of problems (empty when valid), with kube's exact wording, so callers
// can wrap every message in a field.Invalid for their own path.

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH = 63;
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_MAX_LENGTH = 63;
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyRe = new RegExp(`^${labelKeyFmt}$`);
const QUALIFIED_NAME_MAX_LENGTH = 63;

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LABEL_VALUE_MAX_LENGTH = 63;
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierRe = new RegExp(`^${cIdentifierFmt}$`);

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`);

const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameRe = new RegExp(`^${httpHeaderNameFmt}$`);

const percentFmt = '[0-9]+%';
const percentRe = new RegExp(`^${percentFmt}$`);

/** Go measures strings in bytes; so does kube's length validation. */
export const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** util/validation's MaxLenError (the DNS and config key validators). */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
/** api/validate/content's MaxLenError (label keys and values). */
const maxLenBytesError = (n: number): string => `must be no more than ${n} bytes`;
export const emptyError = (): string => 'must be non-empty';
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Go joins the examples with " or " after each "', ": hence the double space.
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** Label and annotation keys, finalizer names: `[prefix/]name` (content.IsLabelKey). */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    // content.IsDNS1123Subdomain (which IsLabelKey uses) words its limit in bytes
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m === maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH) ? maxLenBytesError(DNS1123_SUBDOMAIN_MAX_LENGTH) : m}`);
  } else {
    return [`a valid label key ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}` +
      " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenBytesError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!labelKeyRe.test(name)) errs.push(`name part ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenBytesError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

export function isCIdentifier(value: string): string[] {
  if (cIdentifierRe.test(value)) return [];
  return [regexError("a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
    cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** The rule kube applies to env names since RelaxedEnvironmentVariableValidation went GA. */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of value) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x20 || c > 0x7e || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

/** Keys of ConfigMap data/binaryData and Secret data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configMapKeyRe.test(value)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
      configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  }
  return [...errs, ...hasChDirPrefix(value)];
}

export function isHTTPHeaderName(value: string): string[] {
  if (httpHeaderNameRe.test(value)) return [];
  return [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", httpHeaderNameFmt, 'X-Header-Name')];
}

export function isValidPercent(value: string): string[] {
  if (percentRe.test(value)) return [];
  return [regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, '1%', '93%')];
}

export function isValidUserID(uid: number): string[] {
  return uid >= 0 && uid <= 2147483647 ? [] : [inclusiveRangeError(0, 2147483647)];
}
export const isValidGroupID = isValidUserID;
