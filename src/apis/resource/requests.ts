// ResourceClaim specs (validateResourceClaimSpec of pkg/apis/resource/validation and the v1 defaults):
// requests named by DNS labels, each either `exactly` one class or a `firstAvailable` list, and the
// constraints and configs that name them. CEL selector expressions are not compiled (the CEL issue).
import { fieldPath, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { list, num, obj, optStr, str, type Obj } from '../core/pod/spec-access.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { ExactDeviceRequest, ResourceClaimSpec } from './v1/types.ts';
import { dnsLabel, dnsSubdomain, items, REQUEST_NAME_REF, validateDeviceConfiguration, validateDeviceToleration, validateFullyQualifiedName,
  validateList } from './validation-kit.ts';

type RO<T> = DeepReadonly<T>;
const ALLOCATION_MODES = ['All', 'ExactCount'];

/** SetDefaults_ExactDeviceRequest / DeviceSubRequest / DeviceToleration. */
export function defaultExactRequest(r: ExactDeviceRequest): void {
  if ((r.allocationMode ?? '') === '') r.allocationMode = 'ExactCount';
  if (r.allocationMode === 'ExactCount' && (r.count ?? 0) === 0) r.count = 1;
  for (const t of r.tolerations ?? []) if ((t.operator ?? '') === '') t.operator = 'Equal';
}

export function defaultClaimSpec(spec: ResourceClaimSpec | undefined): void {
  for (const r of spec?.devices?.requests ?? []) {
    if (r.exactly !== undefined) defaultExactRequest(r.exactly);
    for (const s of r.firstAvailable ?? []) defaultExactRequest(s);
  }
}

/** The names a claim's constraints and configs may refer to: a request, or request/subrequest. */
export type RequestNames = ReadonlyMap<string, ReadonlySet<string> | undefined>;

export function gatherRequestNames(spec: RO<ResourceClaimSpec> | undefined): RequestNames {
  const names = new Map<string, ReadonlySet<string> | undefined>();
  for (const r of items(spec?.devices?.requests)) {
    const subs = items(r['firstAvailable']);
    names.set(str(r, 'name'), subs.length === 0 ? undefined : new Set(subs.map((s) => str(s, 'name'))));
  }
  return names;
}

const hasRequest = (names: RequestNames, ref: string): boolean => {
  const [head = '', sub, ...rest] = ref.split('/');
  if (rest.length > 0 || !names.has(head)) return false;
  return sub === undefined || (names.get(head)?.has(sub) ?? false);
};

/** validateRequestNameRef: request or request/subrequest, each a DNS label, naming one of the claim's. */
export function validateRequestNameRef(ref: string, p: FieldPath, names: RequestNames): FieldError[] {
  const segments = ref.split('/');
  if (segments.length > 2) return [invalid(p, ref, REQUEST_NAME_REF)];
  const errs = segments.flatMap((s) => dnsLabel(s, p));
  if (!hasRequest(names, ref)) errs.push(invalid(p, ref, REQUEST_NAME_REF));
  return errs;
}

const refList = (o: Obj, p: FieldPath, names: RequestNames): FieldError[] =>
  validateList(list(o, 'requests').map((v) => (typeof v === 'string' ? v : '')), 32, p.child('requests'),
    (n, ip) => validateRequestNameRef(n, ip, names), (n) => n);

/** validateSelector: a CEL selector with an expression (the expression's compilation is not checked here). */
export function validateSelectors(selectors: unknown, p: FieldPath): FieldError[] {
  return validateList(items(selectors), 32, p, (s, sp) => {
    const cel = obj(s['cel']);
    if (cel === undefined) return [required(sp.child('cel'))];
    const expr = str(cel, 'expression');
    return expr.length > 10 * 1024 ? [tooLong(sp.child('cel', 'expression'), '', 10 * 1024)] : [];
  });
}

/** validateDeviceAllocationMode: All takes no count, ExactCount a positive one. */
function validateAllocationMode(r: Obj, p: FieldPath): FieldError[] {
  const mode = str(r, 'allocationMode');
  const count = num(r, 'count') ?? 0;
  if (mode === 'All') return count !== 0 ? [invalid(p.child('count'), count, "must not be specified when allocationMode is 'All'")] : [];
  if (mode === 'ExactCount') return count <= 0 ? [invalid(p.child('count'), count, 'must be greater than zero')] : [];
  return [notSupported(p.child('allocationMode'), mode, ALLOCATION_MODES)];
}

function validateExact(r: Obj, p: FieldPath): FieldError[] {
  const cls = str(r, 'deviceClassName');
  return [
    ...(cls === '' ? [required(p.child('deviceClassName'))] : dnsSubdomain(cls, p.child('deviceClassName'))),
    ...validateSelectors(r['selectors'], p.child('selectors')),
    ...validateAllocationMode(r, p),
    ...items(r['tolerations']).flatMap((t, i) => validateDeviceToleration(t, p.child('tolerations').index(i))),
  ];
}

function validateRequest(r: Obj, p: FieldPath): FieldError[] {
  const errs = dnsLabel(str(r, 'name'), p.child('name'));
  const subs = items(r['firstAvailable']);
  const exact = obj(r['exactly']);
  if (subs.length === 0 && exact === undefined) errs.push(required(p, 'exactly one of `exactly` or `firstAvailable` is required'));
  else if (subs.length > 0 && exact !== undefined) errs.push(invalid(p, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  else if (subs.length > 0) {
    errs.push(...validateList(subs, 8, p.child('firstAvailable'), (s, sp) => [...dnsLabel(str(s, 'name'), sp.child('name')), ...validateExact(s, sp)],
      (s) => str(s, 'name')));
  } else if (exact !== undefined) errs.push(...validateExact(exact, p.child('exactly')));
  return errs;
}

/** validateDeviceConstraint: known requests, and matchAttribute or distinctAttribute (DRAConsumableCapacity is on). */
function validateConstraint(c: Obj, p: FieldPath, names: RequestNames): FieldError[] {
  const errs = refList(c, p, names);
  const match = optStr(c, 'matchAttribute');
  const distinct = optStr(c, 'distinctAttribute');
  if (match !== undefined) errs.push(...validateFullyQualifiedName(match, p.child('matchAttribute')));
  else if (distinct !== undefined) errs.push(...validateFullyQualifiedName(distinct, p.child('distinctAttribute')));
  else errs.push(required(p, 'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set'));
  return errs;
}

export function validateClaimSpec(spec: RO<ResourceClaimSpec> | undefined, p: FieldPath = fieldPath('spec')): FieldError[] {
  const devices = (spec?.devices ?? {}) as Obj;
  const dp = p.child('devices');
  const names = gatherRequestNames(spec);
  return [
    ...validateList(items(devices['requests']), 32, dp.child('requests'), validateRequest, (r) => str(r, 'name')),
    ...validateList(items(devices['constraints']), 32, dp.child('constraints'), (c, cp) => validateConstraint(c, cp, names)),
    ...validateList(items(devices['config']), 32, dp.child('config'), (c, cp) => [...refList(c, cp, names), ...validateDeviceConfiguration(c, cp)]),
  ];
}
