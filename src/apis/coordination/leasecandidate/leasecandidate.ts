// LeaseCandidates (pkg/registry/coordination/leasecandidate): candidates for coordinated leader
// election, served in v1beta1 and v1alpha2 (same shape). leaseName is immutable.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { validateImmutableField, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isConfigMapKey } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { LeaseCandidate, LeaseCandidateSpec } from '../v1/types.ts';
import { compareSemVer, OLDEST_EMULATION_VERSION, parseSemVer, validateCoordinatedLeaseStrategy, ZERO_SEMVER } from '../validation.ts';

/** ValidLeaseCandidateName: names are config map keys (a trailing '-' is fine for prefixes too). */
const leaseCandidateName = (name: string): string[] => isConfigMapKey(name);

function validateLeaseCandidateSpec(spec: DeepReadonly<LeaseCandidateSpec> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('spec');
  if ((spec?.leaseName ?? '') === '') errs.push(required(p.child('leaseName')));
  const ev = spec?.emulationVersion ?? '';
  let emulation = ZERO_SEMVER;
  if (ev !== '') {
    const parsed = parseSemVer(ev);
    if (parsed === undefined) errs.push(invalid(p.child('emulationVersion'), ev, 'must be a valid semantic version'));
    else emulation = parsed;
  }
  const bv = spec?.binaryVersion ?? '';
  let binary = ZERO_SEMVER;
  if (bv === '') {
    errs.push(required(p.child('binaryVersion')));
  } else {
    const parsed = parseSemVer(bv);
    if (parsed === undefined) errs.push(invalid(p.child('binaryVersion'), bv, 'must be a valid semantic version'));
    else binary = parsed;
  }
  if (bv !== '' && ev !== '' && compareSemVer(binary, emulation) < 0) {
    errs.push(invalid(p.child('binaryVersion'), bv, 'must be greater than or equal to `emulationVersion`'));
  }
  const strategy = spec?.strategy ?? '';
  if (strategy === '') {
    errs.push(required(p.child('strategy')));
  } else {
    if (strategy === OLDEST_EMULATION_VERSION && compareSemVer(emulation, ZERO_SEMVER) === 0) {
      errs.push(required(p.child('emulationVersion'), "must be specified when `strategy` is 'OldestEmulationVersion'"));
    }
    errs.push(...validateCoordinatedLeaseStrategy(strategy, p.child('strategy')));
  }
  return errs;
}

function validateLeaseCandidate(lc: DeepReadonly<LeaseCandidate>): FieldError[] {
  return [...validateObjectMeta(lc.metadata, { namespaced: true, nameFn: leaseCandidateName }), ...validateLeaseCandidateSpec(lc.spec)];
}

export const leaseCandidates = {
  group: 'coordination.k8s.io', kind: 'LeaseCandidate', resource: 'leasecandidates', singular: 'leasecandidate', namespaced: true,
  strategy: specStatusStrategy<LeaseCandidate>({
    validate: (lc) => validateLeaseCandidate(lc),
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: false,
    revalidateOnUpdate: false,
    validateUpdate: (lc, old) => [
      ...validateLeaseCandidateSpec(lc.spec),
      ...validateImmutableField(lc.spec?.leaseName ?? '', old.spec?.leaseName ?? '', fieldPath('spec', 'leaseName')),
    ],
  }),
  table: [
    nameColumn<LeaseCandidate>(),
    { name: 'LeaseName', type: 'string',      cell: (lc) => lc.spec?.leaseName ?? '' },
    { name: 'BinaryVersion', type: 'string', cell: (lc) => lc.spec?.binaryVersion ?? '' },
    { name: 'EmulationVersion', type: 'string', cell: (lc) => lc.spec?.emulationVersion ?? '' },
    ageColumn<LeaseCandidate>(),
  ],
} satisfies ResourceDefinition<LeaseCandidate>;
