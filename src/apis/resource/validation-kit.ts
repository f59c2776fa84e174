// The building blocks of kube's resource.k8s.io validation (pkg/apis/resource/validation): the name
// formats (driver, pool, device, request, qualified attribute names), bounded lists and sets (too
// many items short-circuits; duplicates reported on the item), opaque configuration and tolerations.
import { duplicate, fieldPath, invalid, notSupported, required, tooLong, tooMany, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { isCIdentifier, isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../apimachinery/validation/validation.ts';
import { validateLabelName } from '../../apimachinery/validation/object-meta.ts';
import { validateCSIDriverName } from '../core/persistentvolume/sources.ts';
import { obj, str, type Obj } from '../core/pod/spec-access.ts';

export { fieldPath, type FieldError, type FieldPath };
export type { Obj };

export const REQUEST_NAME_REF = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

export const validateDriverName = validateCSIDriverName;
export const dnsLabel = (v: string, p: FieldPath): FieldError[] => isDNS1123Label(v).map((m) => invalid(p, v, m));
export const dnsSubdomain = (v: string, p: FieldPath): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(p, v, m));

/** validatePoolName: required, at most 253 bytes, each '/'-separated part a DNS subdomain. */
export function validatePoolName(name: string, p: FieldPath): FieldError[] {
  if (name === '') return [required(p)];
  const errs: FieldError[] = [];
  if (name.length > 253) errs.push(tooLong(p, '', 253));
  for (const part of name.split('/')) errs.push(...dnsSubdomain(part, p));
  return errs;
}

/** The entries of a list, non-objects read as empty objects. */
export const items = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((e) => obj(e) ?? {}) : []);

/** validateSlice / validateSet: too many items stops there; else each item, then duplicates by key. */
export function validateList<T>(list: readonly T[], max: number, p: FieldPath, item: (e: T, p: FieldPath) => FieldError[],
  key?: (e: T) => unknown): FieldError[] {
  if (max >= 0 && list.length > max) return [tooMany(p, list.length, max)];
  const errs = list.flatMap((e, i) => item(e, p.index(i)));
  if (key !== undefined) {
    const seen = new Set<string>();
    list.forEach((e, i) => {
      const k = key(e);
      const id = JSON.stringify(k);
      if (seen.has(id)) errs.push(duplicate(p.index(i), k));
      seen.add(id);
    });
  }
  return errs;
}

function cIdentifier(id: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (id.length > 32) errs.push(tooLong(p, '', 32));
  for (const m of isCIdentifier(id)) errs.push(invalid(p, id, m));
  return errs;
}

/** validateQualifiedName of an attribute or capacity: a C identifier, optionally behind a driver-name domain. */
export function validateQualifiedName(name: string, p: FieldPath): FieldError[] {
  const parts = name.split('/');
  if (parts.length === 1) return cIdentifier(name, p);
  if (parts.length !== 2) return [];
  const [domain = '', id = ''] = parts;
  return [
    ...(domain === '' ? [invalid(p, '', 'the domain must not be empty')] : validateDriverName(domain, p)),
    ...(id === '' ? [invalid(p, '', 'the name must not be empty')] : cIdentifier(id, p)),
  ];
}

/** validateFullyQualifiedName: a qualified name that has a domain. */
export function validateFullyQualifiedName(name: string, p: FieldPath): FieldError[] {
  const errs = validateQualifiedName(name, p);
  if (!name.includes('/')) errs.push(invalid(p, name, 'a fully qualified name must be a domain and a name separated by a slash'));
  return errs;
}

/** validateRawExtension of opaque parameters: present, at most 10 KiB of JSON, an object. */
function validateParameters(v: unknown, p: FieldPath, stored: boolean): FieldError[] {
  if (v === undefined || v === null) return [required(p)];
  if (!stored && JSON.stringify(v).length > 10 * 1024) return [tooLong(p, '', 10 * 1024)];
  return obj(v) === undefined ? [invalid(p, '<value omitted>', 'must be a valid JSON object')] : [];
}

/** validateDeviceConfiguration: an opaque configuration with a driver and parameters. */
export function validateDeviceConfiguration(config: Obj, p: FieldPath, stored = false): FieldError[] {
  const opaque = obj(config['opaque']);
  if (opaque === undefined) return [required(p.child('opaque'))];
  return [...validateDriverName(str(opaque, 'driver'), p.child('opaque', 'driver')),
    ...validateParameters(opaque['parameters'], p.child('opaque', 'parameters'), stored)];
}

export const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'None'];

/** validateDeviceToleration. */
export function validateDeviceToleration(t: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(t, 'key') !== '') errs.push(...validateLabelName(str(t, 'key'), p.child('key')));
  const op = str(t, 'operator');
  const value = str(t, 'value');
  if (op === 'Exists') {
    if (value !== '') errs.push(invalid(p.child('value'), value, 'must be empty for operator `Exists`'));
  } else if (op === 'Equal') errs.push(...isValidLabelValue(value).map((m) => invalid(p.child('value'), value, m)));
  else if (op === '') errs.push(required(p.child('operator')));
  else errs.push(notSupported(p.child('operator'), op, ['Equal', 'Exists']));
  const effect = str(t, 'effect');
  if (effect !== '' && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(p.child('effect'), effect, TAINT_EFFECTS));
  return errs;
}
