// metav1.LabelSelector (the wire shape used in specs) and its conversion to a Selector
// (metav1.LabelSelectorAsSelector).
import { LabelSelectorError, newRequirement, type Operator, type Requirement } from './requirement.ts';
import { everything, newSelector, nothing, type Selector } from './selector.ts';

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorOperator | (string & {});
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

const OPERATORS: Readonly<Record<LabelSelectorOperator, Operator>> = {
  In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!',
};

const isLabelSelectorOperator = (op: string): op is LabelSelectorOperator => Object.hasOwn(OPERATORS, op);

/**
 * A null selector matches nothing, an empty one everything. Throws a LabelSelectorError for an
 * unknown operator (`"Foo" is not a valid label selector operator`) or an invalid requirement.
 */
export function labelSelectorAsSelector(ps: Readonly<LabelSelector> | null | undefined): Selector {
  if (ps === null || ps === undefined) return nothing();
  const matchLabels = Object.entries(ps.matchLabels ?? {});
  const exprs = ps.matchExpressions ?? [];
  if (matchLabels.length + exprs.length === 0) return everything();
  const reqs: Requirement[] = [];
  for (const [k, v] of matchLabels) reqs.push(newRequirement(k, '=', [v]));
  for (const expr of exprs) {
    if (!isLabelSelectorOperator(expr.operator)) {
      throw new LabelSelectorError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
    }
    reqs.push(newRequirement(expr.key, OPERATORS[expr.operator], [...(expr.values ?? [])]));
  }
  return newSelector(reqs);
}

/** The text form of a metav1.LabelSelector (metav1.FormatLabelSelector): `<none>` for null or empty. */
export function formatLabelSelector(ps: Readonly<LabelSelector> | null | undefined): string {
  if (ps === null || ps === undefined) return '<none>';
  let sel: Selector;
  try {
    sel = labelSelectorAsSelector(ps);
  } catch {
    return '<error>';
  }
  const s = sel.toString();
  return s === '' ? '<none>' : s;
}
