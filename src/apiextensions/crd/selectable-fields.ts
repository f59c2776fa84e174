// A CRD's selectableFields (field selectors on custom resources): each jsonPath resolved against the
// schema with the field paths of validation rules (no array notation), outside metadata, to a
// string, boolean or integer field, each once, at most eight. Where the versions all declare the
// same list, kube checks it once as spec.selectableFields, as it checks a shared schema.
// Counterpart of ValidateCustomResourceSelectableFields in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go.
import { duplicate, invalid, required, tooMany, type FieldError, type FieldPath } from '../../apimachinery/errors/field-errors.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import { validFieldPath } from '../schema/cel/field-path.ts';
import type { JSONSchemaProps, SelectableField } from '../v1/types.ts';

/** kube's MaxSelectableFields. */
const MAX_SELECTABLE_FIELDS = 8;
const SELECTABLE_TYPES = ['string', 'boolean', 'integer'];

export function validateSelectableFields(fields: readonly DeepReadonly<SelectableField>[], schema: DeepReadonly<JSONSchemaProps>,
  path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = path.index(i).child('jsonPath');
    const jsonPath = f.jsonPath ?? '';
    if (jsonPath === '') {
      errs.push(required(p));
      return;
    }
    let resolved: { path: string; schema: DeepReadonly<JSONSchemaProps> };
    try {
      resolved = validFieldPath(jsonPath, schema, { allowArrayNotation: false });
    } catch (err) {
      errs.push(invalid(p, jsonPath, `is an invalid path: ${(err as Error).message}`));
      return;
    }
    if (resolved.path.split(/[.[]/)[0] === 'metadata') errs.push(invalid(p, jsonPath, 'must not point to fields in metadata'));
    if (!SELECTABLE_TYPES.includes(resolved.schema.type ?? '')) {
      errs.push(invalid(p, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(resolved.path)) errs.push(duplicate(p, jsonPath));
    else unique.add(resolved.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}
