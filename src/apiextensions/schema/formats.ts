// The string formats kube checks on custom resources (apiextensions-apiserver's supported formats,
// checked by go-openapi/strfmt); a format outside this list is accepted unchecked, as in kube.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/validation/formats.go.
import { isIP, isIPv4, isIPv6 } from 'node:net';

type Check = (v: string) => boolean;

const re = (r: RegExp): Check => (v) => r.test(v);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuidVersion = (n: number): Check => (v) => UUID.test(v) && v.replaceAll('-', '')[12] === String(n);
// time.ParseDuration's syntax, or strfmt's own "<n> <unit>" form.
const GO_DURATION = /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;
const STRFMT_DURATION = /^(\d+)\s*(ns|us|µs|ms|s|sec|secs|m|min|mins|h|hr|hrs|hour|hours|d|day|days|w|wk|wks|week|weeks)$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/;

function cidr(v: string): boolean {
  const slash = v.indexOf('/');
  if (slash < 0) return false;
  const ip = v.slice(0, slash);
  const bits = v.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || isIP(ip) === 0) return false;
  return Number(bits) <= (isIPv4(ip) ? 32 : 128);
}

export const FORMATS: Readonly<Record<string, Check>> = {
  'date-time': re(DATE_TIME),
  datetime: re(DATE_TIME),
  date: re(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/),
  email: re(/^[^@\s]+@[^@\s]+\.[^@\s]+$/),
  hostname: (v) => v.length <= 253 && re(/^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*$/)(v),
  ipv4: (v) => isIPv4(v),
  ipv6: (v) => isIPv6(v),
  cidr,
  mac: re(/^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/),
  uuid: re(UUID),
  uuid3: uuidVersion(3),
  uuid4: uuidVersion(4),
  uuid5: uuidVersion(5),
  hexcolor: re(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  rgbcolor: re(/^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/),
  bsonobjectid: re(/^[0-9a-fA-F]{24}$/),
  ssn: re(/^\d{3}[- ]?\d{2}[- ]?\d{4}$/),
  byte: re(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/),
  duration: (v) => GO_DURATION.test(v) || STRFMT_DURATION.test(v),
};
