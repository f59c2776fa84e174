// Query parameters into option fields, as apimachinery's runtime conversion functions
// (Convert_Slice_string_To_int64, _To_bool, ...) do: the first value counts, integers go through
// strconv.ParseInt(s, 10, 64) and fail with its exact text, booleans never fail.
import { goQuote } from '../goformat/index.ts';

const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

/** An error whose message is Go's strconv text; callers wrap it into a 400 as kube's handlers do. */
export class StrconvError extends Error {
  override readonly name = 'StrconvError';
}

/**
 * strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits only (no spaces, no '_',
 * no exponent, no hex). Throws StrconvError with "invalid syntax" or "value out of range".
 */
export function parseInt64(s: string): bigint {
  const syntax = (): StrconvError => new StrconvError(`strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`);
  const sign = s[0] === '+' || s[0] === '-' ? s[0] : '';
  const digits = s.slice(sign.length);
  if (digits === '' || !/^[0-9]+$/.test(digits)) throw syntax();
  // Leading zeros do not count towards the range, and BigInt parsing stays linear in the length.
  const n = BigInt(digits);
  const v = sign === '-' ? -n : n;
  if (v < MIN_INT64 || v > MAX_INT64) throw new StrconvError(`strconv.ParseInt: parsing ${goQuote(s)}: value out of range`);
  return v;
}

/**
 * An int64 as a JS number, clamped to the safe integers: beyond ±2^53 no limit, timeout or
 * grace period differs in effect, and an unsafe number would be written back to JSON as a
 * different value.
 */
export function int64ToNumber(v: bigint): number {
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  if (v > max) return Number.MAX_SAFE_INTEGER;
  if (v < -max) return -Number.MAX_SAFE_INTEGER;
  return Number(v);
}

/** Convert_Slice_string_To_int64 / _To_Pointer_int64 for one query parameter; undefined when absent. */
export function queryInt64(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return int64ToNumber(parseInt64(v));
}

/**
 * Convert_Slice_string_To_bool / _To_Pointer_bool: "false" (any case) and "0" are false, any
 * other value, the empty one included, is true. Undefined when absent.
 */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}
