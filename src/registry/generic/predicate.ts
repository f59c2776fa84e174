// The label and field selection of a list or watch, for a resource's selectable fields.
// Counterpart of k8s.io/apiserver/pkg/storage/selection_predicate.go.
import { parseLabelSelectorParam } from '../../apimachinery/labels/index.ts';
import {
  convertFieldSelector, defaultMetaV1FieldSelectorConversion, newSelectionPredicate, parseFieldSelectorParam,
  validateFieldSelector,
} from '../../apimachinery/fields/index.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { SelectionPredicate } from '../../storage/interfaces.ts';
import type { ListOptions } from '../rest/capabilities.ts';
import { objectMetaFieldSet, type DeepReadonly, type FieldSet, type ResourceDefinition } from '../rest/strategy.ts';

/** The field selector values of an object of this resource. */
function fieldSetOf<T extends KubeObject>(def: ResourceDefinition<T>, obj: KubeObject): FieldSet {
  const ro = obj as DeepReadonly<T>;
  return def.selectableFields !== undefined ? def.selectableFields(ro) : objectMetaFieldSet(ro.metadata, def.namespaced);
}

const supportedCache = new WeakMap<object, readonly string[]>();

/** The field names a resource can select on: the keys of its field set. */
function supportedFields<T extends KubeObject>(def: ResourceDefinition<T>): readonly string[] {
  let names = supportedCache.get(def);
  if (names === undefined) {
    // Field sets read spec and status; an empty object of the kind gives every field name.
    names = Object.keys(fieldSetOf(def, { metadata: {}, spec: {}, status: {} } as KubeObject));
    supportedCache.set(def, names);
  }
  return names;
}

/** Rejects with BadRequest for a malformed selector or a field the resource cannot select on. */
export function buildPredicate<T extends KubeObject>(def: ResourceDefinition<T>, opts: ListOptions): SelectionPredicate {
  const labels = opts.labelSelector !== undefined && opts.labelSelector !== '' ? parseLabelSelectorParam(opts.labelSelector) : undefined;
  let fields = opts.fieldSelector !== undefined && opts.fieldSelector !== '' ? parseFieldSelectorParam(opts.fieldSelector) : undefined;
  if (fields !== undefined) {
    fields = def.selectableFields !== undefined && def.defaultFieldLabelConversion !== true
      ? validateFieldSelector(fields, supportedFields(def), def.fieldLabelMessage)
      : convertFieldSelector(fields, defaultMetaV1FieldSelectorConversion);
  }
  return newSelectionPredicate(labels, fields, (obj) => fieldSetOf(def, obj));
}
