// ResourceClaim status updates (validateResourceClaimStatusUpdate of pkg/apis/resource/validation):
// consumers in reservedFor (named fully, once per UID, at most 256, only on an allocated claim, not
// added while the claim is deleted), a new allocation's results and configs (naming the claim's
// requests), an allocation fixed once set, and device statuses only for allocated devices.
import { duplicate, fieldPath, forbidden, GoSyntax, invalid, notSupported, required, tooLong, tooMany, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { validateConditions, type MetaCondition } from '../../../apimachinery/validation/conditions.ts';
import { formatIP, parseCIDRSloppy } from '../../../apimachinery/validation/ip.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import { goQuote } from '../../../apimachinery/goformat/index.ts';
import { allocationValue } from '../go-values.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateNodeSelector } from '../../core/pod/affinity.ts';
import { obj, optStr, str, type Obj } from '../../core/pod/spec-access.ts';
import { gatherRequestNames, validateRequestNameRef, type RequestNames } from '../requests.ts';
import type { ResourceClaim } from '../v1/types.ts';
import { dnsLabel, items, validateDeviceConfiguration, validateDriverName, validateList, validatePoolName } from '../validation-kit.ts';

const RESERVED_FOR_MAX = 256;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const present = (v: unknown): boolean => v !== undefined && v !== null;
const consumerKey = (r: Obj): string => JSON.stringify([str(r, 'apiGroup'), str(r, 'resource'), str(r, 'name'), str(r, 'uid')]);
/** structured.SharedDeviceID of a result or a device status, as Go prints it (a nil shareID is ""). */
const deviceID = (d: Obj): string =>
  JSON.stringify({ Driver: str(d, 'driver'), Pool: str(d, 'pool'), Device: str(d, 'device'), ShareID: optStr(d, 'shareID') ?? '' });
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);

const BINDING_CONDITIONS_MAX = 4;
const DEVICE_CONDITIONS_MAX = 8;
const DEVICE_DATA_MAX = 10 * 1024;
const NETWORK_IPS_MAX = 16;
const INTERFACE_NAME_MAX = 256;
const HARDWARE_ADDRESS_MAX = 128;

/** validateDeviceBindingParameters: label-name conditions, no duplicates, no overlap, both or neither. */
function validateBindingConditions(r: Obj, p: FieldPath): FieldError[] {
  const conditions = strings(r['bindingConditions']);
  const failures = strings(r['bindingFailureConditions']);
  const cp = p.child('bindingConditions');
  const fp = p.child('bindingFailureConditions');
  const labelName = (v: string, ip: FieldPath): FieldError[] => isQualifiedName(v).map((m) => invalid(ip, v, m));
  const errs = [...validateList(conditions, BINDING_CONDITIONS_MAX, cp, labelName), ...validateList(failures, BINDING_CONDITIONS_MAX, fp, labelName)];
  conditions.forEach((c, i) => { if (conditions.indexOf(c) !== i) errs.push(duplicate(cp.index(i), c)); });
  failures.forEach((c, i) => {
    if (failures.indexOf(c) !== i) errs.push(duplicate(fp.index(i), c));
    if (conditions.includes(c)) errs.push(invalid(fp.index(i), c, 'bindingFailureConditions must not overlap with bindingConditions'));
  });
  const asValue = (v: unknown): unknown => (Array.isArray(v) ? v : null);
  if (conditions.length === 0 && failures.length > 0) errs.push(invalid(cp, asValue(r['bindingConditions']), 'bindingConditions are required to use bindingFailureConditions'));
  if (failures.length === 0 && conditions.length > 0) errs.push(invalid(fp, asValue(r['bindingFailureConditions']), 'bindingFailureConditions are required to use bindingConditions'));
  return errs;
}

/** validation.IsValidInterfaceAddress: an address with its prefix length, in canonical form. */
function validateInterfaceAddress(value: string, p: FieldPath): FieldError[] {
  const c = parseCIDRSloppy(value);
  if (c === undefined) return [invalid(p, value, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)')];
  const canonical = `${formatIP(c.ip)}/${c.prefixLength}`;
  return value === canonical ? [] : [invalid(p, value, `must be in canonical form ("${canonical}")`)];
}

/** validateRawExtension of a device's data: a JSON object of at most 10 KiB. */
function validateDeviceData(data: unknown, p: FieldPath): FieldError[] {
  if (data === undefined || data === null) return [];
  if (JSON.stringify(data).length > DEVICE_DATA_MAX) return [tooLong(p, '', DEVICE_DATA_MAX)];
  return obj(data) === undefined ? [invalid(p, '<value omitted>', 'must be a valid JSON object')] : [];
}

/** validateNetworkDeviceData. */
function validateNetworkData(n: Obj | undefined, p: FieldPath): FieldError[] {
  if (n === undefined) return [];
  const errs: FieldError[] = [];
  if (str(n, 'interfaceName').length > INTERFACE_NAME_MAX) errs.push(tooLong(p.child('interfaceName'), '', INTERFACE_NAME_MAX));
  if (str(n, 'hardwareAddress').length > HARDWARE_ADDRESS_MAX) errs.push(tooLong(p.child('hardwareAddress'), '', HARDWARE_ADDRESS_MAX));
  errs.push(...validateList(strings(n['ips']), NETWORK_IPS_MAX, p.child('ips'), validateInterfaceAddress, (ip) => ip));
  return errs;
}

/** google/uuid's Validate: the error it gives a malformed UUID, or undefined. */
function uuidError(s: string): string | undefined {
  const hex = /^[0-9a-fA-F]*$/;
  let v = s;
  if (s.length === 45) {
    if (s.slice(0, 9).toLowerCase() !== 'urn:uuid:') return `invalid urn prefix: ${goQuote(s.slice(0, 9))}`;
    v = s.slice(9);
  } else if (s.length === 38) {
    if (!s.startsWith('{') || !s.endsWith('}')) return 'invalid bracketed UUID format';
    v = s.slice(1, -1);
  } else if (s.length === 32) return hex.test(s) ? undefined : 'invalid UUID format';
  else if (s.length !== 36) return `invalid UUID length: ${s.length}`;
  const parts = v.split('-');
  return v[8] === '-' && v[13] === '-' && v[18] === '-' && v[23] === '-' && parts.every((x) => hex.test(x)) ? undefined : 'invalid UUID format';
}

/** validateUID of a shareID: a UUID, in its RFC 4122 normalised form. */
function validateShareID(d: Obj, p: FieldPath): FieldError[] {
  const id = optStr(d, 'shareID');
  if (id === undefined) return [];
  const err = uuidError(id);
  if (err !== undefined) return [invalid(p.child('shareID'), id, `error validating uid: ${err}`)];
  if (UUID.test(id)) return [];
  return [invalid(p.child('shareID'), id, 'uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters')];
}

function validateResult(r: Obj, p: FieldPath, names: RequestNames): FieldError[] {
  return [
    ...validateRequestNameRef(str(r, 'request'), p.child('request'), names),
    ...validateDriverName(str(r, 'driver'), p.child('driver')),
    ...validatePoolName(str(r, 'pool'), p.child('pool')),
    ...dnsLabel(str(r, 'device'), p.child('device')),
    ...validateBindingConditions(r, p),
    ...validateShareID(r, p),
  ];
}

function validateAllocationConfig(c: Obj, p: FieldPath, names: RequestNames): FieldError[] {
  const errs: FieldError[] = [];
  const source = str(c, 'source');
  if (source === '') errs.push(required(p.child('source')));
  else if (source !== 'FromClaim' && source !== 'FromClass') errs.push(notSupported(p.child('source'), source, ['FromClaim', 'FromClass']));
  const refs = items(c['requests']).length === 0 ? [] : (c['requests'] as unknown[]).map((v) => (typeof v === 'string' ? v : ''));
  errs.push(...validateList(refs, 32, p.child('requests'), (n, ip) => validateRequestNameRef(n, ip, names), (n) => n));
  errs.push(...validateDeviceConfiguration(c, p));
  return errs;
}

function validateAllocation(a: Obj, p: FieldPath, names: RequestNames): FieldError[] {
  const devices = obj(a['devices']) ?? {};
  const dp = p.child('devices');
  const errs = [
    ...validateList(items(devices['results']), 32, dp.child('results'), (r, rp) => validateResult(r, rp, names)),
    ...validateList(items(devices['config']), 64, dp.child('config'), (c, cp) => validateAllocationConfig(c, cp, names)),
  ];
  const sel = obj(a['nodeSelector']);
  if (sel !== undefined) errs.push(...validateNodeSelector(sel, true, p.child('nodeSelector')));
  return errs;
}

function validateDeviceStatus(d: Obj, p: FieldPath, allocated: ReadonlySet<string>): FieldError[] {
  const errs = [
    ...validateDriverName(str(d, 'driver'), p.child('driver')),
    ...validatePoolName(str(d, 'pool'), p.child('pool')),
    ...dnsLabel(str(d, 'device'), p.child('device')),
    ...validateShareID(d, p),
  ];
  if (!allocated.has(deviceID(d))) {
    errs.push(invalid(p, new GoSyntax(deviceID(d)), 'must be an allocated device in the claim'));
  }
  const conditions = items(d['conditions']);
  if (conditions.length > DEVICE_CONDITIONS_MAX) errs.push(tooMany(p.child('conditions'), conditions.length, DEVICE_CONDITIONS_MAX));
  errs.push(...validateConditions(Array.isArray(d['conditions']) ? d['conditions'] as MetaCondition[] : undefined, p.child('conditions')));
  errs.push(...validateDeviceData(d['data'], p.child('data')));
  errs.push(...validateNetworkData(obj(d['networkData']), p.child('networkData')));
  return errs;
}

export function validateResourceClaimStatusUpdate(claim: DeepReadonly<ResourceClaim>, old: DeepReadonly<ResourceClaim>): FieldError[] {
  const errs: FieldError[] = [];
  const status = (claim.status ?? {}) as Obj;
  const oldStatus = (old.status ?? {}) as Obj;
  const p = fieldPath('status');
  const consumers = items(status['reservedFor']);
  errs.push(...validateList(consumers, RESERVED_FOR_MAX, p.child('reservedFor'), (r, rp) => [
    ...(str(r, 'resource') === '' ? [required(rp.child('resource'))] : []),
    ...(str(r, 'name') === '' ? [required(rp.child('name'))] : []),
    ...(str(r, 'uid') === '' ? [required(rp.child('uid'))] : []),
  ], (r) => str(r, 'uid')));
  const allocation = obj(status['allocation']);
  const allocated = new Set(items(obj(allocation?.['devices'])?.['results']).map(deviceID));
  errs.push(...validateList(items(status['devices']), -1, p.child('devices'), (d, dp) => validateDeviceStatus(d, dp, allocated)));
  // duplicates of device statuses are reported on the item, as a set of device IDs
  const seen = new Set<string>();
  items(status['devices']).forEach((d, i) => {
    const id = deviceID(d);
    if (seen.has(id)) errs.push(duplicate(p.child('devices').index(i), new GoSyntax(id)));
    seen.add(id);
  });
  if (consumers.length > 0) {
    if (allocation === undefined) errs.push(forbidden(p.child('reservedFor'), 'may not be specified when `allocated` is not set'));
    else if (present(claim.metadata.deletionTimestamp)) {
      const before = new Set(items(oldStatus['reservedFor']).map(consumerKey));
      if (consumers.some((r) => !before.has(consumerKey(r)))) {
        errs.push(forbidden(p.child('reservedFor'), 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
      }
    }
  }
  const oldAllocation = obj(oldStatus['allocation']);
  if (oldAllocation !== undefined && allocation !== undefined && !deepEqual(allocation, oldAllocation)) {
    errs.push(invalid(p.child('allocation'), allocationValue(allocation), 'field is immutable'));
  }
  else if (allocation !== undefined) errs.push(...validateAllocation(allocation, p.child('allocation'), gatherRequestNames(claim.spec)));
  return errs;
}
