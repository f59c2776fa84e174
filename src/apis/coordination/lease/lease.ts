// Leases (pkg/registry/coordination/lease): leader election and node heartbeats. Created on PUT;
// updates must carry a resourceVersion. spec.strategy and spec.preferredHolder belong to the
// CoordinatedLeaderElection feature and are dropped while it is off (its default).
import { fieldPath, forbidden, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { Lease, LeaseSpec } from '../v1/types.ts';
import { validateCoordinatedLeaseStrategy } from '../validation.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

function validateLeaseSpec(spec: DeepReadonly<LeaseSpec> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const p = fieldPath('spec');
  if (spec?.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(invalid(p.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec?.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(invalid(p.child('leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec?.strategy !== undefined) errs.push(...validateCoordinatedLeaseStrategy(spec.strategy, p.child('strategy')));
  if ((spec?.preferredHolder ?? '') !== '' && (spec?.strategy ?? '') === '') {
    errs.push(forbidden(p.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

function validateLease(lease: DeepReadonly<Lease>): FieldError[] {
  return [...validateObjectMeta(lease.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validateLeaseSpec(lease.spec)];
}

export interface LeaseOptions {
  /** The CoordinatedLeaderElection feature gate (beta, off by default). */
  readonly coordinatedLeaderElection?: boolean;
}

export function newLeaseDefinition(opts: LeaseOptions = {}) {
  const enabled = opts.coordinatedLeaderElection === true;
  return {
    group: 'coordination.k8s.io', kind: 'Lease', resource: 'leases', singular: 'lease', namespaced: true,
  goZeroValues: (o) => { for (const [path, v] of [[['spec'], {}]] as const) setZero(o, path, v); },
    strategy: specStatusStrategy<Lease>({
      prepareForCreate(_ctx, lease) {
        if (enabled || lease.spec === undefined) return;
        delete lease.spec.strategy;
        delete lease.spec.preferredHolder;
      },
      validate: (lease) => validateLease(lease),
      allowCreateOnUpdate: true,
      allowUnconditionalUpdate: false,
      prepareForUpdate(_ctx, lease, old) {
        if (enabled || lease.spec === undefined) return;
        if (old.spec?.strategy === undefined) delete lease.spec.strategy;
        if (old.spec?.preferredHolder === undefined) delete lease.spec.preferredHolder;
      },
      revalidateOnUpdate: false,
      validateUpdate: (lease, _old) => validateLeaseSpec(lease.spec),
    }),
    table: [
      nameColumn<Lease>(),
      { name: 'Holder', type: 'string',        cell: (l) => l.spec?.holderIdentity ?? '' },
      ageColumn<Lease>(),
    ],
  } satisfies ResourceDefinition<Lease>;
}

export const leases = newLeaseDefinition();
