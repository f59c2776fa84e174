import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../../apimachinery/errors/field-errors.ts';
import { systemContext } from '../../apimachinery/request/context.ts';
import { coordinationGroup } from './install.ts';
import { leases, newLeaseDefinition } from './lease/lease.ts';
import { leaseCandidates } from './leasecandidate/leasecandidate.ts';
import type { Lease, LeaseCandidate } from './v1/types.ts';
import { compareSemVer, parseSemVer } from './validation.ts';

const ctx = systemContext('kube-system');
const lease = (spec: NonNullable<Lease['spec']>): Lease => ({ metadata: { name: 'l', namespace: 'kube-system' }, spec });
const cand = (spec: NonNullable<LeaseCandidate['spec']>): LeaseCandidate => ({ metadata: { name: 'c', namespace: 'kube-system' }, spec });

describe('leases', () => {
  const cases: { name: string; obj: Lease; want: string[] }[] = [
    { name: 'valid', obj: lease({ holderIdentity: 'n1', leaseDurationSeconds: 40, renewTime: '2024-01-01T00:00:00.123456Z' }), want: [] },
    { name: 'durations', obj: lease({ leaseDurationSeconds: 0, leaseTransitions: -1 }),
      want: ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0', 'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0'] },
    { name: 'unknown strategy (kube doubles the path)', obj: lease({ strategy: 'Newest' }),
      want: ['spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"'] },
    { name: 'preferredHolder needs a strategy', obj: lease({ preferredHolder: 'n2' }),
      want: ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined'] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(leases.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));

  it('drops strategy fields while CoordinatedLeaderElection is off', () => {
    const l = lease({ holderIdentity: 'n', strategy: 'OldestEmulationVersion', preferredHolder: 'n' });
    leases.strategy.prepareForCreate(ctx, l);
    assert.deepEqual(l.spec, { holderIdentity: 'n' });
    const on = lease({ strategy: 'OldestEmulationVersion' });
    newLeaseDefinition({ coordinatedLeaderElection: true }).strategy.prepareForCreate(ctx, on);
    assert.equal(on.spec?.strategy, 'OldestEmulationVersion');
    const upd = lease({ strategy: 'OldestEmulationVersion' });
    leases.strategy.prepareForUpdate(ctx, upd, lease({ strategy: 'OldestEmulationVersion' }));
    assert.equal(upd.spec?.strategy, 'OldestEmulationVersion', 'kept when the old object used it');
  });
  it('created on PUT, updates need a resourceVersion', () => {
    assert.equal(leases.strategy.allowCreateOnUpdate, true);
    assert.equal(leases.strategy.allowUnconditionalUpdate, false);
  });
  it('table: NAME HOLDER AGE', () => {
    const l: Lease = { metadata: { name: 'node1', creationTimestamp: '2024-01-01T00:00:00Z' }, spec: { holderIdentity: 'node1' } };
    assert.deepEqual(leases.table.map((c) => c.cell(l, Date.parse('2024-01-01T01:00:00Z'))), ['node1', 'node1', '60m']);
    assert.equal(leases.table[1]?.cell({ metadata: {} }, 0), '');
  });
});

describe('leasecandidates', () => {
  const cases: { name: string; obj: LeaseCandidate; want: string[] }[] = [
    { name: 'valid', obj: cand({ leaseName: 'kcm', binaryVersion: '1.36.0', emulationVersion: '1.35.0', strategy: 'OldestEmulationVersion' }), want: [] },
    { name: 'required fields', obj: cand({}),
      want: ['spec.leaseName: Required value', 'spec.binaryVersion: Required value', 'spec.strategy: Required value'] },
    { name: 'versions', obj: cand({ leaseName: 'l', binaryVersion: '1.30.0', emulationVersion: '1.31.0', strategy: 'x.io/custom' }),
      want: ['spec.binaryVersion: Invalid value: "1.30.0": must be greater than or equal to `emulationVersion`'] },
    { name: 'bad semver and missing emulation version', obj: cand({ leaseName: 'l', binaryVersion: 'v1', strategy: 'OldestEmulationVersion' }),
      want: ['spec.binaryVersion: Invalid value: "v1": must be a valid semantic version',
        "spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'"] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(leaseCandidates.strategy.validate(ctx, c.obj).map(formatFieldError), c.want));
  it('leaseName is immutable', () => {
    const spec = { binaryVersion: '1.36.0', strategy: 'x.io/s' };
    assert.deepEqual(leaseCandidates.strategy.validateUpdate(ctx, cand({ ...spec, leaseName: 'b' }), cand({ ...spec, leaseName: 'a' })).map(formatFieldError),
      ['spec.leaseName: Invalid value: "b": field is immutable']);
  });
  it('semver precedence', () => {
    const v = (s: string) => parseSemVer(s) ?? assert.fail(s);
    assert.equal(compareSemVer(v('1.0.0-alpha'), v('1.0.0')), -1);
    assert.equal(compareSemVer(v('1.0.0-alpha.1'), v('1.0.0-alpha.beta')), -1);
    assert.equal(compareSemVer(v('1.10.0'), v('1.9.0')), 1);
    assert.equal(parseSemVer('1.2'), undefined);
  });
  it('served in v1beta1 (storage) and v1alpha2', () => {
    assert.deepEqual(coordinationGroup.versions.map((v) => [v.version, v.resources.map((r) => r.resource)]),
      [['v1', ['leases']], ['v1beta1', ['leasecandidates']], ['v1alpha2', ['leasecandidates']]]);
    assert.equal(coordinationGroup.conversions, undefined);
  });
});
