// mutatePodAffinity and mutateTopologySpreadConstraints of kube's pod strategy (PrepareForCreate, with
// MatchLabelKeysInPodAffinity and MatchLabelKeysInPodTopologySpreadSelectorMerge on, as in v1.36): the
// values the new pod has for each key of matchLabelKeys (In) and mismatchLabelKeys (NotIn) are added
// to the term's labelSelector, so the scheduler and the stored pod see one selector.
// Counterpart of pkg/registry/core/pod/strategy.go (mutatePodAffinity, mutateTopologySpreadConstraints).
import type { Pod } from '../v1/types.ts';

type Mutable = Record<string, unknown>;

const asObject = (v: unknown): Mutable | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Mutable : undefined;
const objectAt = (o: Mutable | undefined, k: string): Mutable | undefined => asObject(o?.[k]);
const listAt = (o: Mutable | undefined, k: string): readonly unknown[] => {
  const v = o?.[k];
  return Array.isArray(v) ? v : [];
};

function addRequirements(selector: Mutable, keys: readonly unknown[], operator: 'In' | 'NotIn', labels: Readonly<Record<string, string>>): void {
  for (const key of keys) {
    if (typeof key !== 'string' || !Object.hasOwn(labels, key)) continue;
    const expressions = Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'] as unknown[] : [];
    selector['matchExpressions'] = [...expressions, { key, operator, values: [labels[key]] }];
  }
}

/** A nil labelSelector matches nothing: keys are added only to a selector that is there. */
function applyLabelKeys(term: Mutable | undefined, labels: Readonly<Record<string, string>>, withMismatch: boolean): void {
  const selector = objectAt(term, 'labelSelector');
  if (selector === undefined) return;
  addRequirements(selector, listAt(term, 'matchLabelKeys'), 'In', labels);
  if (withMismatch) addRequirements(selector, listAt(term, 'mismatchLabelKeys'), 'NotIn', labels);
}

export function mutatePodAffinity(pod: Pod): void {
  const labels = pod.metadata.labels ?? {};
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const affinity = objectAt(pod.spec.affinity, kind);
    for (const weighted of listAt(affinity, 'preferredDuringSchedulingIgnoredDuringExecution')) {
      applyLabelKeys(objectAt(asObject(weighted), 'podAffinityTerm'), labels, true);
    }
    for (const term of listAt(affinity, 'requiredDuringSchedulingIgnoredDuringExecution')) applyLabelKeys(asObject(term), labels, true);
  }
}

export function mutateTopologySpreadConstraints(pod: Pod): void {
  const labels = pod.metadata.labels ?? {};
  for (const c of pod.spec.topologySpreadConstraints ?? []) applyLabelKeys(c, labels, false);
}
