// Device requests of ResourceClaim specs (pkg/apis/resource validation and v1 defaults, light):
// named by DNS labels, each either `exactly` one class or a `firstAvailable` list.
import { duplicate, fieldPath, invalid, notSupported, required, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { ExactDeviceRequest, ResourceClaimSpec } from './v1/types.ts';

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

function validateExact(r: RO<ExactDeviceRequest>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const cls = r.deviceClassName ?? '';
  if (cls === '') errs.push(required(p.child('deviceClassName'), ''));
  else for (const m of nameIsDNSSubdomain(cls, false)) errs.push(invalid(p.child('deviceClassName'), cls, m));
  (r.selectors ?? []).forEach((s, i) => {
    if ((s.cel?.expression ?? '') === '') errs.push(required(p.child('selectors').index(i).child('cel', 'expression'), ''));
  });
  const mode = r.allocationMode ?? '';
  if (mode !== '' && !ALLOCATION_MODES.includes(mode)) errs.push(notSupported(p.child('allocationMode'), mode, ALLOCATION_MODES));
  if (mode === 'ExactCount' && (r.count ?? 0) <= 0) errs.push(invalid(p.child('count'), r.count ?? 0, 'must be greater than zero'));
  return errs;
}

export function validateClaimSpec(spec: RO<ResourceClaimSpec> | undefined, p: FieldPath = fieldPath('spec')): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (spec?.devices?.requests ?? []).forEach((r, i) => {
    const rp = p.child('devices', 'requests').index(i);
    const name = r.name ?? '';
    if (name === '') errs.push(required(rp.child('name'), ''));
    else for (const m of nameIsDNSLabel(name, false)) errs.push(invalid(rp.child('name'), name, m));
    if (name !== '' && names.has(name)) errs.push(duplicate(rp.child('name'), name));
    names.add(name);
    const sub = r.firstAvailable ?? [];
    if ((r.exactly === undefined) === (sub.length === 0)) errs.push(invalid(rp, '', 'exactly one of `exactly` or `firstAvailable` is required'));
    if (r.exactly !== undefined) errs.push(...validateExact(r.exactly, rp.child('exactly')));
    sub.forEach((s, j) => {
      const sp = rp.child('firstAvailable').index(j);
      const sn = s.name ?? '';
      if (sn === '') errs.push(required(sp.child('name'), ''));
      else for (const m of nameIsDNSLabel(sn, false)) errs.push(invalid(sp.child('name'), sn, m));
      errs.push(...validateExact(s, sp));
    });
  });
  return errs;
}
