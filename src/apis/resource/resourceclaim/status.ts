// ResourceClaim status updates (validateResourceClaimStatusUpdate of pkg/apis/resource/validation):
// consumers in reservedFor (named fully, once per UID, at most 256, only on an allocated claim, not
// added while the claim is deleted), a new allocation's results and configs (naming the claim's
// requests), an allocation fixed once set, and device statuses only for allocated devices.
import { duplicate, fieldPath, forbidden, GoSyntax, invalid, notSupported, required, tooMany, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
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
/** structured.SharedDeviceID of a result or a device status. */
const deviceID = (d: Obj): string => JSON.stringify([str(d, 'driver'), str(d, 'pool'), str(d, 'device'), optStr(d, 'shareID') ?? null]);

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
    const id = { Driver: str(d, 'driver'), Pool: str(d, 'pool'), Device: str(d, 'device'), ShareID: optStr(d, 'shareID') ?? '' };
    errs.push(invalid(p, new GoSyntax(JSON.stringify(id)), 'must be an allocated device in the claim'));
  }
  const conditions = items(d['conditions']);
  if (conditions.length > 8) errs.push(tooMany(p.child('conditions'), conditions.length, 8));
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
