// Deprecated node labels and the warnings for selectors that use them (pkg/api/node/util.go).
import type { FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';

const DEPRECATED_NODE_LABELS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/** GetNodeLabelDeprecatedMessage: the deprecation text of a node label, undefined when it is current. */
export const nodeLabelDeprecatedMessage = (key: string): string | undefined =>
  Object.hasOwn(DEPRECATED_NODE_LABELS, key) ? DEPRECATED_NODE_LABELS[key] : undefined;

/** GetWarningsForNodeSelectorTerm: deprecated labels in a term's matchExpressions. */
export function nodeSelectorTermWarnings(term: DeepReadonly<Record<string, unknown>> | undefined, path: FieldPath): string[] {
  const exprs = term?.['matchExpressions'];
  if (!Array.isArray(exprs)) return [];
  const warnings: string[] = [];
  exprs.forEach((e: unknown, i) => {
    const key = typeof e === 'object' && e !== null ? (e as { key?: unknown }).key : undefined;
    if (typeof key !== 'string') return;
    const msg = nodeLabelDeprecatedMessage(key);
    if (msg !== undefined) warnings.push(`${path.child('matchExpressions').index(i).child('key').toString()}: ${key} is ${msg}`);
  });
  return warnings;
}
