// PodDisruptionBudgets (pkg/registry/policy/poddisruptionbudget): strategy and printer columns.
import type { ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, bumpGenerationIfChanged, copyOf, goFields, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import type { PodDisruptionBudget } from '../v1/types.ts';
import { validatePodDisruptionBudget, validatePodDisruptionBudgetStatus } from './validation.ts';
import { setZero } from '../../../registry/rest/zero-values.ts';

/** The empty status as Go serializes it: the four counters have no omitempty. */
const emptyStatus = (): NonNullable<PodDisruptionBudget['status']> =>
  ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });

const notMetadata = (e: { field: string }): boolean => !e.field.startsWith('metadata.');

const podDisruptionBudgetStrategy = specStatusStrategy<PodDisruptionBudget>({
  prepareForCreate(_ctx, pdb) {
    pdb.status = emptyStatus();
    pdb.metadata.generation = 1;
  },
  validate: (pdb) => validatePodDisruptionBudget(pdb),
  allowUnconditionalUpdate: false,
  prepareForUpdate(_ctx, pdb, old) {
    if (old.status === undefined) delete pdb.status;
    else pdb.status = copyOf<NonNullable<PodDisruptionBudget['status']>>(old.status);
    pdb.metadata.generation = old.metadata.generation ?? 1;
    bumpGenerationIfChanged(pdb.metadata, pdb.spec, old.spec);
  },
  revalidateOnUpdate: false,
  validateUpdate: (pdb) => validatePodDisruptionBudget(pdb).filter(notMetadata),
  canonicalize(pdb) {
    pdb.status ??= emptyStatus();
    goFields(pdb.status, emptyStatus(), ['observedGeneration', 'conditions']);
  },
});

const podDisruptionBudgetStatusStrategy = statusStrategy<PodDisruptionBudget>(podDisruptionBudgetStrategy, {
  validate: (pdb) => validatePodDisruptionBudgetStatus(pdb.status),
});

const intOrPercent = (v: string | number | undefined): string => (v === undefined ? 'N/A' : String(v));

export const podDisruptionBudgets = {
  group: 'policy', kind: 'PodDisruptionBudget', resource: 'poddisruptionbudgets', singular: 'poddisruptionbudget',
  goZeroValues: (o) => { for (const [path, v] of [[['spec'], {}]] as const) setZero(o, path, v); },
  shortNames: ['pdb'], namespaced: true,
  strategy: podDisruptionBudgetStrategy,
  statusStrategy: podDisruptionBudgetStatusStrategy,
  table: [
    nameColumn<PodDisruptionBudget>(),
    { name: 'Min Available', type: 'string', cell: (p) => intOrPercent(p.spec?.minAvailable) },
    { name: 'Max Unavailable', type: 'string', cell: (p) => intOrPercent(p.spec?.maxUnavailable) },
    { name: 'Allowed Disruptions', type: 'integer', cell: (p) => p.status?.disruptionsAllowed ?? 0 },
    ageColumn<PodDisruptionBudget>(),
  ],
} satisfies ResourceDefinition<PodDisruptionBudget>;
