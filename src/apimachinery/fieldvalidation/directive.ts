// The fieldValidation query parameter of create, update and patch (metav1.FieldValidation*).
import { newInvalid, type StatusError } from '../errors/status-error.ts';
import { notSupported } from '../errors/field-errors.ts';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

/** The options kind named in the 422 for a bad value, per verb. */
export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

// sets.NewString("", Ignore, Warn, Strict).List(): sorted, the empty string first.
const SUPPORTED = ['', 'Ignore', 'Strict', 'Warn'] as const;

/**
 * The directive a request asks for: absent or empty means Warn (the server default since 1.27).
 * Returns a StatusError (422 Invalid on meta.k8s.io/<optionsKind>, as ValidateFieldValidation)
 * for any other value; the caller throws it.
 */
export function parseFieldValidation(value: string | undefined, optionsKind: WriteOptionsKind = 'CreateOptions'):
  FieldValidationDirective | StatusError {
  if (value === undefined || value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  return newInvalid({ group: 'meta.k8s.io', kind: optionsKind }, '', [notSupported('fieldValidation', value, SUPPORTED)]);
}

/**
 * Like parseFieldValidation but throws the StatusError.
 * Throws a StatusError with reason Invalid (422) when value is not '', Ignore, Warn or Strict.
 */
export function validateFieldDirective(value: string | undefined, optionsKind: WriteOptionsKind = 'CreateOptions'):
  FieldValidationDirective {
  const d = parseFieldValidation(value, optionsKind);
  if (typeof d !== 'string') throw d;
  return d;
}
