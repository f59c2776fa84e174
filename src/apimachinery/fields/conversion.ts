// Field label conversion: which field names a resource accepts in a field selector.
// kube-apiserver runs the selector through the resource's conversion function and answers a
// rejected field with 400 BadRequest carrying the function's message.
// Counterpart of k8s.io/apimachinery/pkg/runtime (FieldLabelConversionFunc) and
// pkg/apis/core/v1/conversion.go.
import { newBadRequest } from '../errors/status-error.ts';
import { FieldSelectorError, parseFieldSelector, transformFieldSelector, type FieldSelector, type FieldTransform } from './selector.ts';

/** The message of a kind's field label conversion for a field it does not support. */
export type FieldLabelMessage = (field: string) => string;

/** The message most kinds' conversions give: `field label not supported: x`. */
export const fieldLabelNotSupported: FieldLabelMessage = (field) => `field label not supported: ${field}`;

/** The conversion for resources that register their own field labels. */
export function supportedFieldLabels(supported: readonly string[], message: FieldLabelMessage = fieldLabelNotSupported): FieldTransform {
  const allowed = new Set(supported);
  return (field, value) => {
    if (!allowed.has(field)) throw new FieldSelectorError(message(field));
    return { field, value };
  };
}

/**
 * runtime.DefaultMetaV1FieldSelectorConversion, used for kinds with no registered conversion:
 * `"x" is not a known field selector: only "metadata.name", "metadata.namespace"`.
 */
export const defaultMetaV1FieldSelectorConversion: FieldTransform = (field, value) => {
  if (field === 'metadata.name' || field === 'metadata.namespace') return { field, value };
  throw new FieldSelectorError(`${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
};

/**
 * Checks that every field of the selector is in `supported`. Throws a 400 BadRequest StatusError
 * with `field label not supported: <name>` for the first unsupported field.
 */
export function validateFieldSelector(sel: FieldSelector, supported: readonly string[], message?: FieldLabelMessage): FieldSelector {
  return convertFieldSelector(sel, supportedFieldLabels(supported, message));
}

/** Transforms the selector with a conversion; any error becomes a 400 BadRequest with its message. */
export function convertFieldSelector(sel: FieldSelector, conversion: FieldTransform): FieldSelector {
  try {
    return transformFieldSelector(sel, conversion);
  } catch (err) {
    throw toBadRequest(err);
  }
}

/** Parses the `fieldSelector` query parameter; a syntax error becomes a 400 BadRequest. */
export function parseFieldSelectorParam(text: string): FieldSelector {
  try {
    return parseFieldSelector(text);
  } catch (err) {
    throw toBadRequest(err);
  }
}

function toBadRequest(err: unknown): unknown {
  return err instanceof FieldSelectorError ? newBadRequest(err.message) : err;
}
