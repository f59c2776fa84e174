// PriorityLevelConfiguration validation (ValidatePriorityLevelConfiguration): the type/limited/exempt
// union ("Exempt" exactly for the level named exempt), shares and percentages, the limit response
// and its shuffle-sharding queues, and the mandatory levels, whose spec is fixed (compared and
// printed in the shape of kube's internal Go struct, as kube reports it).
// Counterpart of pkg/apis/flowcontrol/validation/validation.go (ValidatePriorityLevelConfiguration).
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import type { PriorityLevelConfiguration, QueuingConfiguration } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
type Spec = NonNullable<PriorityLevelConfiguration['spec']>;
type Limited = NonNullable<Spec['limited']>;

const TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];
const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits. */
const MAX_HASH_BITS = 60;
/** Only the v1beta3 round trip may carry it; stored objects must not. */
const PRESERVE_ZERO_SHARES_ANNOTATION = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';

/** bootstrap MandatoryPriorityLevelConfigurations, as defaulted. */
const MANDATORY: Readonly<Record<string, Spec>> = {
  'exempt': { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  'catch-all': { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } },
};

/** The spec as kube's internal Go struct prints it. */
function goSpec(spec: RO<Spec>): unknown {
  const ptr = (n: number | undefined): number | null => n ?? null;
  const l = spec.limited;
  const q = l?.limitResponse?.queuing;
  return {
    Type: spec.type ?? '',
    Limited: l === undefined ? null : {
      NominalConcurrencyShares: l.nominalConcurrencyShares ?? 0,
      LimitResponse: {
        Type: l.limitResponse?.type ?? '',
        Queuing: q === undefined ? null : { Queues: q.queues ?? 0, HandSize: q.handSize ?? 0, QueueLengthLimit: q.queueLengthLimit ?? 0 },
      },
      LendablePercent: ptr(l.lendablePercent),
      BorrowingLimitPercent: ptr(l.borrowingLimitPercent),
    },
    Exempt: spec.exempt === undefined ? null : { NominalConcurrencyShares: ptr(spec.exempt.nominalConcurrencyShares), LendablePercent: ptr(spec.exempt.lendablePercent) },
  };
}

function validateQueuing(q: RO<QueuingConfiguration>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const limit = q.queueLengthLimit ?? 0;
  const queues = q.queues ?? 0;
  const hand = q.handSize ?? 0;
  if (limit <= 0) errs.push(invalid(p.child('queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errs.push(invalid(p.child('queues'), queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(invalid(p.child('queues'), queues, `must not be greater than ${MAX_QUEUES}`));
  if (hand <= 0) errs.push(invalid(p.child('handSize'), hand, 'must be positive'));
  else if (hand > queues) errs.push(invalid(p.child('handSize'), hand, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * hand) > MAX_HASH_BITS) {
    errs.push(invalid(p.child('handSize'), hand, `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

function validateLimited(l: RO<Limited>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const shares = l.nominalConcurrencyShares ?? 0;
  if (shares < 0) errs.push(invalid(p.child('nominalConcurrencyShares'), shares, 'must be a non-negative integer'));
  const lr = l.limitResponse ?? {};
  const lrp = p.child('limitResponse');
  const type = lr.type ?? '';
  if (type === 'Reject') {
    if (lr.queuing !== undefined) errs.push(forbidden(lrp.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited'));
  } else if (type === 'Queue') {
    if (lr.queuing === undefined) errs.push(required(lrp.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited'));
    else errs.push(...validateQueuing(lr.queuing, lrp.child('queuing')));
  } else if (type === '') errs.push(required(lrp.child('type'), ''));
  else errs.push(notSupported(lrp.child('type'), type, LIMIT_RESPONSE_TYPES));
  const lend = l.lendablePercent;
  if (lend !== undefined && (lend < 0 || lend > 100)) errs.push(invalid(p.child('lendablePercent'), lend, 'must be between 0 and 100, inclusive'));
  const borrow = l.borrowingLimitPercent;
  if (borrow !== undefined && borrow < 0) errs.push(invalid(p.child('borrowingLimitPercent'), borrow, 'if specified, must be a non-negative integer'));
  return errs;
}

/** Everything but ObjectMeta's own rules, which the caller checks. */
export function validatePriorityLevelConfigurationSpec(plc: RO<PriorityLevelConfiguration>): FieldError[] {
  const errs: FieldError[] = [];
  if (plc.metadata.annotations?.[PRESERVE_ZERO_SHARES_ANNOTATION] !== undefined) {
    errs.push(forbidden(fieldPath('metadata', 'annotations'), `annotation '${PRESERVE_ZERO_SHARES_ANNOTATION}' is forbidden`));
  }
  const name = plc.metadata.name ?? '';
  const spec = plc.spec ?? {};
  const p = fieldPath('spec');
  const type = spec.type ?? '';
  if ((name === 'exempt') !== (type === 'Exempt')) errs.push(invalid(p.child('type'), type, "must be 'Exempt' if and only if `name` is 'exempt'"));
  if (type === 'Exempt') {
    if (spec.limited !== undefined) errs.push(forbidden(p.child('limited'), 'must be nil if the type is not Limited'));
    const ex = spec.exempt;
    if (ex !== undefined) {
      const ep = p.child('exempt');
      if (ex.nominalConcurrencyShares !== undefined && ex.nominalConcurrencyShares < 0) {
        errs.push(invalid(ep.child('nominalConcurrencyShares'), ex.nominalConcurrencyShares, 'must be a non-negative integer'));
      }
      const lend = ex.lendablePercent;
      if (lend !== undefined && (lend < 0 || lend > 100)) errs.push(invalid(ep.child('lendablePercent'), lend, 'must be between 0 and 100, inclusive'));
    }
  } else if (type === 'Limited') {
    if (spec.exempt !== undefined) errs.push(forbidden(p.child('exempt'), 'must be nil if the type is Limited'));
    if (spec.limited === undefined) errs.push(required(p.child('limited'), 'must not be empty when type is Limited'));
    else errs.push(...validateLimited(spec.limited, p.child('limited')));
  } else if (type === '') errs.push(required(p.child('type'), ''));
  else errs.push(notSupported(p.child('type'), type, TYPES));
  const fixed = MANDATORY[name];
  if (fixed !== undefined) {
    // the exempt level's exempt field is the administrator's to tune
    const have: RO<Spec> = name === 'exempt' ? { ...spec, exempt: fixed.exempt ?? {} } : spec;
    const detail = name === 'exempt' ? "except the 'spec.exempt' field must equal the fixed value" : 'must equal the fixed value';
    // kube prints the spec as sent, exempt field included
    if (!deepEqual(goSpec(have), goSpec(fixed))) errs.push(invalid(p, goSpec(spec), `spec of '${name}' ${detail}`));
  }
  return errs;
}
