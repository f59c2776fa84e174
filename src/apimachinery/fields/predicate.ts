// storage.SelectionPredicate built from a label and a field selector (SelectionPredicate in
// k8s.io/apiserver/pkg/storage/selection_predicate.go). Labels come from metadata.labels.
import type { KubeObject } from '../meta/types.ts';
import { everything, type Selector } from '../labels/selector.ts';
import { everythingFields, type FieldSelector, type Fields } from './selector.ts';

/** Chooses which objects a list or watch returns (labels and fields); storage applies it. */
export interface SelectionPredicate {
  /** True when every object matches (no selector): lets storage skip decoding work. */
  readonly empty: boolean;
  matches(obj: KubeObject): boolean;
}

export type GetFieldSet = (obj: KubeObject) => Fields;

export interface LabelFieldPredicate extends SelectionPredicate {
  readonly label: Selector;
  readonly field: FieldSelector;
}

/**
 * Matches objects whose labels satisfy `labelSelector` and whose field set satisfies
 * `fieldSelector`. Empty when both selectors are empty. The field set is computed only when
 * the field selector restricts something.
 */
export function newSelectionPredicate(
  labelSelector: Selector | undefined,
  fieldSelector: FieldSelector | undefined,
  getFieldSet: GetFieldSet,
): LabelFieldPredicate {
  const label = labelSelector ?? everything();
  const field = fieldSelector ?? everythingFields();
  const empty = label.empty && field.empty;
  return {
    label,
    field,
    empty,
    matches(obj: KubeObject): boolean {
      if (empty) return true;
      if (!label.empty && !label.matches(obj.metadata.labels)) return false;
      return field.empty || field.matches(getFieldSet(obj));
    },
  };
}
