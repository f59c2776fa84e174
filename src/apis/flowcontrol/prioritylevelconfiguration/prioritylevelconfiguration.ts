// PriorityLevelConfigurations (pkg/registry/flowcontrol/prioritylevelconfiguration): cluster-scoped,
// status subresource, generation bumped on spec changes; v1 defaults (30 shares, 64 queues, hand
// size 8, queue length 50). Light validation of the type/limited/exempt union.
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { validateFlowControlStatus } from '../status.ts';
import type { PriorityLevelConfiguration } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
type PLC = PriorityLevelConfiguration;
const TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];

/** SetDefaults for v1 Limited/Exempt/QueuingConfiguration. */
export function defaultPriorityLevelConfiguration(plc: PLC): void {
  const limited = plc.spec?.limited;
  if (limited !== undefined) {
    limited.nominalConcurrencyShares ??= 30;
    limited.lendablePercent ??= 0;
    const q = limited.limitResponse?.queuing;
    if (q !== undefined) {
      if ((q.handSize ?? 0) === 0) q.handSize = 8;
      if ((q.queues ?? 0) === 0) q.queues = 64;
      if ((q.queueLengthLimit ?? 0) === 0) q.queueLengthLimit = 50;
    }
  }
  const exempt = plc.spec?.exempt;
  if (exempt !== undefined) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}

export function validatePriorityLevelConfiguration(plc: RO<PLC>): FieldError[] {
  const errs = validateObjectMeta(plc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  const spec = plc.spec ?? {};
  const p = fieldPath('spec');
  const type = spec.type ?? '';
  if (type === '') errs.push(required(p.child('type'), 'must not be empty'));
  else if (!TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, TYPES));
  if (type === 'Limited') {
    if (spec.exempt !== undefined) errs.push(forbidden(p.child('exempt'), 'must be nil if the type is Limited'));
    const limited = spec.limited;
    if (limited === undefined) errs.push(required(p.child('limited'), 'must not be empty when type is Limited'));
    else {
      const lp = p.child('limited');
      if ((limited.nominalConcurrencyShares ?? 0) < 0) errs.push(invalid(lp.child('nominalConcurrencyShares'), limited.nominalConcurrencyShares, 'must be a non-negative integer'));
      const lend = limited.lendablePercent ?? 0;
      if (lend < 0 || lend > 100) errs.push(invalid(lp.child('lendablePercent'), lend, 'must be between 0 and 100, inclusive'));
      const lr = limited.limitResponse ?? {};
      const lrp = lp.child('limitResponse');
      if (!LIMIT_RESPONSE_TYPES.includes(lr.type ?? '')) errs.push(notSupported(lrp.child('type'), lr.type ?? '', LIMIT_RESPONSE_TYPES));
      if (lr.type === 'Queue' && lr.queuing === undefined) errs.push(required(lrp.child('queuing'), 'must not be empty if the type is Queue'));
      if (lr.type === 'Reject' && lr.queuing !== undefined) errs.push(forbidden(lrp.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited'));
      const q = lr.queuing;
      if (q !== undefined) {
        const qp = lrp.child('queuing');
        if ((q.queueLengthLimit ?? 0) <= 0) errs.push(invalid(qp.child('queueLengthLimit'), q.queueLengthLimit ?? 0, 'must be positive'));
        if ((q.queues ?? 0) <= 0) errs.push(invalid(qp.child('queues'), q.queues ?? 0, 'must be positive'));
        if ((q.handSize ?? 0) <= 0) errs.push(invalid(qp.child('handSize'), q.handSize ?? 0, 'must be positive'));
        else if ((q.handSize ?? 0) > (q.queues ?? 0)) errs.push(invalid(qp.child('handSize'), q.handSize, `should not be greater than queues (${q.queues ?? 0})`));
      }
    }
  } else if (type === 'Exempt') {
    if (spec.limited !== undefined) errs.push(forbidden(p.child('limited'), 'must be nil if the type is not Limited'));
  }
  return errs;
}

const strategy = specStatusStrategy<PLC>({ validate: validatePriorityLevelConfiguration, hasStatus: true, generation: true });
const queuing = (plc: RO<PLC>) => plc.spec?.limited?.limitResponse?.queuing;

export const priorityLevelConfigurations = {
  group: 'flowcontrol.apiserver.k8s.io', kind: 'PriorityLevelConfiguration', resource: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration', namespaced: false,
  strategy,
  statusStrategy: statusStrategy(strategy, { validate: validateFlowControlStatus, resetMetadata: {} }),
  defaults: defaultPriorityLevelConfiguration,
  table: [
    nameColumn<PLC>(),
    column<PLC>('Type', 'string', (plc) => plc.spec?.type ?? ''),
    column<PLC>('NominalConcurrencyShares', 'string', (plc) => (plc.spec?.limited === undefined ? '<none>' : plc.spec.limited.nominalConcurrencyShares ?? 0)),
    column<PLC>('Queues', 'string', (plc) => queuing(plc)?.queues ?? '<none>'),
    column<PLC>('HandSize', 'string', (plc) => queuing(plc)?.handSize ?? '<none>'),
    column<PLC>('QueueLengthLimit', 'string', (plc) => queuing(plc)?.queueLengthLimit ?? '<none>'),
    ageColumn<PLC>(),
  ],
} satisfies ResourceDefinition<PLC>;
