// Field error helpers the volume attachment validation needs beyond the shared ones.
// Counterpart of field error helpers of pkg/apis/storage/validation.
import { invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { inclusiveRangeError } from '../../../apimachinery/validation/validation.ts';

export { fieldPath, forbidden, invalid, required, tooLong, type FieldError } from '../../../apimachinery/errors/field-errors.ts';

/** An int32 error code below 0: "must be between 0 and 2147483647, inclusive". */
export const inclusiveRangeErrorField = (p: FieldPath, v: number): FieldError => invalid(p, v, inclusiveRangeError(0, 2147483647));
