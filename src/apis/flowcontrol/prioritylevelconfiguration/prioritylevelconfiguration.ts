// PriorityLevelConfigurations (pkg/registry/flowcontrol/prioritylevelconfiguration): cluster-scoped,
// status subresource, generation bumped on spec changes; v1 defaults (30 shares, 64 queues, hand
// size 8, queue length 50). Validation in ./validation.ts.
import type { FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { validateFlowControlStatus } from '../status.ts';
import type { PriorityLevelConfiguration } from '../v1/types.ts';
import { validatePriorityLevelConfigurationSpec } from './validation.ts';

type RO<T> = DeepReadonly<T>;
type PLC = PriorityLevelConfiguration;

/** SetDefaults for v1 Limited/Exempt/QueuingConfiguration. */
function defaultPriorityLevelConfiguration(plc: PLC): void {
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

function validatePriorityLevelConfiguration(plc: RO<PLC>): FieldError[] {
  const errs = validateObjectMeta(plc.metadata, { namespaced: false, nameFn: nameIsDNSSubdomain });
  return [...errs, ...validatePriorityLevelConfigurationSpec(plc)];
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
