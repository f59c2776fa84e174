// ResourceSlice validation (ValidateResourceSlice / ValidateResourceSliceUpdate of
// pkg/apis/resource/validation): driver and pool, exactly one node field, devices (names,
// attributes, capacities, taints, per-device node selection) and shared counters. The driver,
// pool name and node name are fixed once created.
import { GoSyntax, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateImmutableField, validateLabelName, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isValidLabelValue } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { validateNodeSelector } from '../../core/pod/affinity.ts';
import { goStructs, NODE_SELECTOR_TERM } from '../../core/pod/go-struct.ts';
import { has, list, num, obj, objects, optStr, str } from '../../core/pod/spec-access.ts';
import type { ResourceSlice } from '../v1/types.ts';
import { dnsLabel, fieldPath, items, TAINT_EFFECTS, validateDriverName, validateList, validatePoolName, validateQualifiedName, type Obj } from '../validation-kit.ts';

type RO<T> = DeepReadonly<T>;
const NODE_FIELDS = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
const DEVICE_NODE_FIELDS = 'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec';
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;
const ATTRIBUTE_KINDS: readonly (readonly [json: string, go: string])[] = [['int', 'IntValue'], ['bool', 'BoolValue'], ['string', 'StringValue'],
  ['version', 'VersionValue'], ['ints', 'IntValues'], ['bools', 'BoolValues'], ['strings', 'StringValues'], ['versions', 'VersionValues']];

const nodeName = (v: string, p: FieldPath): FieldError[] => nameIsDNSSubdomain(v, false).map((m) => invalid(p, v, m));

function stringValue(v: string, p: FieldPath): FieldError[] {
  return v.length > 64 ? [tooLong(p, '', 64)] : [];
}
function versionValue(v: string, p: FieldPath): FieldError[] {
  return [...(SEMVER.test(v) ? [] : [invalid(p, v, 'must be a string compatible with semver.org spec 2.0.0')]), ...stringValue(v, p)];
}

/** validateDeviceAttribute: exactly one value (scalar or non-empty list), strings and versions bounded. */
function validateAttribute(a: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const [json] of ATTRIBUTE_KINDS) {
    // an empty list decodes to a nil slice: it counts as unset
    if (!has(a, json) || (Array.isArray(a[json]) && list(a, json).length === 0)) continue;
    n++;
    const v = a[json];
    if (json === 'string') errs.push(...stringValue(String(v), p.child('string')));
    if (json === 'version') errs.push(...versionValue(String(v), p.child('version')));
    if (json === 'strings') list(a, json).forEach((e, i) => errs.push(...stringValue(String(e), p.child(json).index(i))));
    if (json === 'versions') list(a, json).forEach((e, i) => errs.push(...versionValue(String(e), p.child(json).index(i))));
  }
  if (n === 0) errs.push(invalid(p, '', 'exactly one value must be specified'));
  if (n > 1) errs.push(invalid(p, new GoSyntax(JSON.stringify(Object.fromEntries(ATTRIBUTE_KINDS.map(([json, go]) => [go, a[json] ?? null])))), 'exactly one value must be specified'));
  return errs;
}

/** validateMap of attributes or capacities: each key a qualified name (reported on the map), each value checked under its key. */
function validateKeyed(m: Obj | undefined, p: FieldPath, value: (v: Obj, p: FieldPath) => FieldError[]): FieldError[] {
  return Object.entries(m ?? {}).flatMap(([k, v]) => [...validateQualifiedName(k, p), ...value(obj(v) ?? {}, p.key(k))]);
}

function validateTaint(t: Obj, p: FieldPath): FieldError[] {
  const errs = validateLabelName(str(t, 'key'), p.child('key'));
  const value = str(t, 'value');
  if (value !== '') errs.push(...isValidLabelValue(value).map((m) => invalid(p.child('value'), value, m)));
  const effect = str(t, 'effect');
  if (effect === '') errs.push(required(p.child('effect')));
  else if (!TAINT_EFFECTS.includes(effect)) errs.push(notSupported(p.child('effect'), effect, TAINT_EFFECTS));
  return errs;
}

function validateDevice(d: Obj, old: Obj | undefined, p: FieldPath, perDevice: boolean): FieldError[] {
  const errs = dnsLabel(str(d, 'name'), p.child('name'));
  const attributes = obj(d['attributes']);
  const capacity = obj(d['capacity']);
  const total = Object.keys(attributes ?? {}).length + Object.keys(capacity ?? {}).length;
  if (total > 32) errs.push(invalid(p, total, 'the total number of attributes and capacities must not exceed 32'));
  errs.push(...validateKeyed(attributes, p.child('attributes'), validateAttribute));
  errs.push(...validateKeyed(capacity, p.child('capacity'), () => []));
  if (old === undefined || !deepEqual(old['taints'] ?? null, d['taints'] ?? null)) errs.push(...validateList(items(d['taints']), 16, p.child('taints'), validateTaint));
  const nodeFields = has(d, 'nodeName') || has(d, 'nodeSelector') || has(d, 'allNodes');
  if (perDevice) {
    const set: string[] = [];
    const name = optStr(d, 'nodeName');
    if (name !== undefined) {
      if (name === '') errs.push(invalid(p.child('nodeName'), name, 'must not be empty'));
      else { set.push('`nodeName`'); errs.push(...nodeName(name, p.child('nodeName'))); }
    }
    const sel = obj(d['nodeSelector']);
    if (sel !== undefined) { set.push('`nodeSelector`'); errs.push(...validateNodeSelector(sel, true, p.child('nodeSelector'))); }
    if (has(d, 'allNodes')) {
      if (d['allNodes'] === true) set.push('`allNodes`');
      else errs.push(invalid(p.child('allNodes'), d['allNodes'], 'must be either unset or set to true'));
    }
    if (set.length === 0) errs.push(required(p, DEVICE_NODE_FIELDS));
    else if (set.length > 1) errs.push(invalid(p, `{${set.join(', ')}}`, DEVICE_NODE_FIELDS));
  } else if (nodeFields) {
    errs.push(invalid(p, null, '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec'));
  }
  return errs;
}

function validateSpec(s: RO<ResourceSlice>, old?: RO<ResourceSlice>): FieldError[] {
  const spec = (s.spec ?? {}) as Obj;
  const oldSpec = old === undefined ? undefined : (old.spec ?? {}) as Obj;
  const p = fieldPath('spec');
  const errs = validateDriverName(str(spec, 'driver'), p.child('driver'));
  const pool = obj(spec['pool']) ?? {};
  errs.push(...validatePoolName(str(pool, 'name'), p.child('pool', 'name')));
  const count = num(pool, 'resourceSliceCount') ?? 0;
  if (count <= 0) errs.push(invalid(p.child('pool', 'resourceSliceCount'), count, 'must be greater than zero'));
  const generation = num(pool, 'generation') ?? 0;
  if (generation < 0) errs.push(invalid(p.child('pool', 'generation'), generation, 'must be greater than or equal to zero'));
  if (oldSpec !== undefined) {
    errs.push(...validateImmutableField(str(pool, 'name'), str(obj(oldSpec['pool']), 'name'), p.child('pool', 'name')));
    errs.push(...validateImmutableField(str(spec, 'driver'), str(oldSpec, 'driver'), p.child('driver')));
    errs.push(...validateImmutableField(spec['nodeName'] ?? null, oldSpec['nodeName'] ?? null, p.child('nodeName')));
  }
  const set: string[] = [];
  const name = optStr(spec, 'nodeName');
  if (name !== undefined) {
    if (name !== '') { set.push('`nodeName`'); errs.push(...nodeName(name, p.child('nodeName'))); }
    else errs.push(invalid(p.child('nodeName'), name, 'must be either unset or set to a non-empty string'));
  }
  const sel = obj(spec['nodeSelector']);
  if (sel !== undefined) {
    set.push('`nodeSelector`');
    errs.push(...validateNodeSelector(sel, true, p.child('nodeSelector')));
    const terms = objects(sel, 'nodeSelectorTerms');
    if (terms.length !== 1) errs.push(invalid(p.child('nodeSelector', 'nodeSelectorTerms'), goStructs(terms, NODE_SELECTOR_TERM), 'must have exactly one node selector term'));
  }
  for (const k of ['allNodes', 'perDeviceNodeSelection']) {
    if (!has(spec, k)) continue;
    if (spec[k] === true) set.push(`\`${k}\``);
    else errs.push(invalid(p.child(k), spec[k], 'must be either unset or set to true'));
  }
  if (set.length === 0) errs.push(required(p, NODE_FIELDS));
  else if (set.length > 1) errs.push(invalid(p, `{${set.join(', ')}}`, `${NODE_FIELDS}, but multiple fields are set`));
  if (has(spec, 'sharedCounters') && has(spec, 'devices')) errs.push(invalid(p, '', 'only one of `sharedCounters` or `devices` is allowed'));
  const devices = items(spec['devices']);
  const advanced = devices.some((d) => has(d, 'taints') || has(d, 'consumesCounters') ||
    Object.values(obj(d['attributes']) ?? {}).some((a) => ['ints', 'bools', 'strings', 'versions'].some((k) => has(obj(a), k))));
  const oldDevices = items(oldSpec?.['devices']);
  const perDevice = spec['perDeviceNodeSelection'] === true;
  errs.push(...validateList(devices, advanced ? 64 : 128, p.child('devices'),
    (d, dp) => validateDevice(d, oldDevices.find((o) => str(o, 'name') === str(d, 'name')), dp, perDevice), (d) => str(d, 'name')));
  errs.push(...validateList(items(spec['sharedCounters']), 8, p.child('sharedCounters'), (c, cp) => {
    const cname = str(c, 'name');
    const e = cname === '' ? [required(cp.child('name'))] : dnsLabel(cname, cp.child('name'));
    const counters = obj(c['counters']) ?? {};
    if (Object.keys(counters).length === 0) e.push(required(cp.child('counters')));
    else for (const k of Object.keys(counters)) e.push(...dnsLabel(k, cp.child('counters')));
    return e;
  }, (c) => str(c, 'name')));
  return errs;
}

export function validateResourceSlice(s: RO<ResourceSlice>): FieldError[] {
  return [...validateObjectMeta(s.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain }), ...validateSpec(s)];
}

export const validateResourceSliceUpdate = (s: RO<ResourceSlice>, old: RO<ResourceSlice>): FieldError[] => validateSpec(s, old);
