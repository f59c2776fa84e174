// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): exact values (nano-units in a bigint),
// the format a quantity was written in, its canonical text ("1500m", "2Gi", "2k"), and the text
// a decoded quantity marshals back to: kube keeps the client's string when ParseQuantity deems it
// canonical already ("100m", "+1", "1e3") and prints Quantity.String() otherwise ("1.5" is "1500m").

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
export interface Quantity { readonly nano: bigint; readonly format: QuantityFormat }

const NANO = 1_000_000_000n;
const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const pow10 = (n: number): bigint => 10n ** BigInt(n);

export const quantity = (n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity => ({ nano: BigInt(n) * NANO, format });
export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

/** ParseQuantity's errors (ErrFormatWrong, ErrSuffix, ErrNumeric), verbatim. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';

/**
 * How ParseQuantity stores a value: an int64Amount (value * 10^scale) on its fast path, else an
 * inf.Dec (unscaled * 10^exponent); methods such as MilliValue overflow differently on each.
 */
export type QuantityAmount = { readonly int64: bigint; readonly scale: number } | { readonly unscaled: bigint; readonly exponent: number };

/** What ParseQuantity leaves: the value, how it is held, and the text it keeps when that is canonical already. */
export type ParsedQuantity = { readonly quantity: Quantity; readonly amount: QuantityAmount; readonly cached: string | undefined } | { readonly error: string };

/** The BinarySI cap of ParseQuantity (math.MaxInt64). */
const MAX_ALLOWED = (1n << 63n) - 1n;
/**
 * Exponents beyond this are refused as ErrNumeric, a limit of kapi's own. kube v1.36.3 accepts
 * "1e1000002" (in milliseconds) but gives no answer for "1e10000000" or "1e2000000000": the request
 * times out and the connection is dropped. Between 1e5 and about 1e6 kube stores what kapi refuses:
 * exact values of a million digits would cost kapi a second of CPU per quantity.
 */
const MAX_EXPONENT = 100_000;
/**
 * A negative exponent costs kapi nothing (the value rounds up to one nano-unit): kube answers
 * "1e-10000000" (in seconds) and times out on "1e-2000000000", so kapi stops between the two.
 */
const MIN_EXPONENT = -10_000_000;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** parseQuantityString: sign, numerator without leading zeros, denominator, suffix, the numeric text. */
function splitQuantity(str: string): { positive: boolean; value: string; num: string; denom: string; suffix: string } | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') { positive = false; pos++; } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) === '' ? '0' : str.slice(pos, i);
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  i = pos;
  while (i < end && 'eEinumkKMGTP'.includes(str[i] ?? '')) i++;
  if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = i;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  for (i = pos; i < end; i++) if (!isDigit(str[i])) return undefined;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

const DECIMAL_BY_SUFFIX = new Map(Object.entries(DECIMAL));
const BINARY_EXPONENT: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** suffixHandler.interpret: base, exponent and format of a suffix; undefined when unknown. */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const dec = DECIMAL_BY_SUFFIX.get(suffix);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_EXPONENT[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const parsed = BigInt(suffix.slice(1));
    if (parsed > (1n << 63n) - 1n || parsed < -(1n << 63n)) return undefined; // strconv.ParseInt overflows
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' }; // int32(parsed) wraps
  }
  return undefined;
}

/** A decimal text (sign, digits, one optional dot) as value * 10^-scale; undefined when it has no digit. */
function decimalText(text: string): { unscaled: bigint; scale: number } | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  if (m === null || (m[2] ?? '') + (m[3] ?? '') === '') return undefined;
  const digits = `${m[2] ?? ''}${m[3] ?? ''}`;
  return { unscaled: (m[1] === '-' ? -1n : 1n) * BigInt(digits), scale: (m[3] ?? '').length };
}

/** resource.ParseQuantity, exactly: the value (rounded up to nano-units) and the text it keeps. */
export function goParseQuantity(str: string): ParsedQuantity {
  if (str === '') return { error: QUANTITY_FORMAT_ERROR };
  if (str === '0') return { quantity: { nano: 0n, format: 'DecimalSI' }, amount: { int64: 0n, scale: 0 }, cached: '0' };
  const parts = splitQuantity(str);
  if (parts === undefined) return { error: QUANTITY_FORMAT_ERROR };
  const { positive, value, num, denom, suffix } = parts;
  const s = interpretSuffix(suffix);
  if (s === undefined) return { error: QUANTITY_SUFFIX_ERROR };
  if (s.exponent > MAX_EXPONENT || s.exponent < MIN_EXPONENT) return { error: QUANTITY_NUMERIC_ERROR };
  let format = s.format;
  // the fast path: an int64 amount when the digits fit (and the text cached when canonical)
  let precision: number;
  let mantissa = 1n;
  let scale = 0;
  if (s.base === 10) {
    scale = s.exponent;
    precision = 18 - (num.length + denom.length);
  } else if (s.exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(s.exponent);
    precision = 15 - num.length - Math.trunc(Math.fround(s.exponent * 3 / 10)) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const v = BigInt(shifted);
      const result = v * mantissa;
      if (result <= MAX_ALLOWED) {
        const signed = positive ? result : -result;
        const nano = scale >= -9 ? signed * pow10(scale + 9) : signed;
        const canonical = format === 'BinarySI'
          ? s.exponent % 10 === 0 && (v & 7n) !== 0n
          : scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
        return { quantity: { nano, format }, amount: { int64: signed, scale }, cached: canonical ? str : undefined };
      }
    }
  }
  // the slow path: an exact decimal, rounded up (away from zero) to nano-units
  const amount = decimalText(value);
  if (amount === undefined) return { error: QUANTITY_NUMERIC_ERROR };
  let unscaled = amount.unscaled < 0n ? -amount.unscaled : amount.unscaled;
  let exp10 = -amount.scale;
  if (s.base === 10) exp10 += s.exponent;
  else unscaled *= 1n << BigInt(s.exponent);
  let nano: bigint;
  if (exp10 + 9 >= 0) nano = unscaled * pow10(exp10 + 9);
  else {
    const k = -(exp10 + 9);
    // a value with no more digits than the divisor has zeros rounds up to 1 (no 10^k needed)
    if (unscaled.toString().length <= k) nano = unscaled === 0n ? 0n : 1n;
    else {
      const den = pow10(k);
      nano = (unscaled + den - 1n) / den;
    }
  }
  if (format === 'BinarySI' && nano > MAX_ALLOWED * NANO) nano = MAX_ALLOWED * NANO;
  if (format === 'BinarySI' && nano < NANO && nano > 0n) format = 'DecimalSI';
  const signed = amount.unscaled < 0n ? -nano : nano;
  // inf.Dec's Round leaves nano-units (scale 9); the cap leaves math.MaxInt64 at scale 0
  const capped = format === 'BinarySI' && nano === MAX_ALLOWED * NANO;
  const held: QuantityAmount = capped ? { unscaled: amount.unscaled < 0n ? -MAX_ALLOWED : MAX_ALLOWED, exponent: 0 }
    : nano === 0n ? { unscaled: 0n, exponent: exp10 } : { unscaled: signed, exponent: -9 };
  return { quantity: { nano: signed, format }, amount: held, cached: undefined };
}

const int64 = (v: bigint): bigint => BigInt.asIntN(64, v);
const MOST_NEGATIVE = -(1n << 63n);

/** int64 multiplication that wraps, as positiveScaleInt64's fixed cases do (0 for math.MinInt64). */
const wrapMultiply = (a: bigint, b: bigint): bigint => (a === MOST_NEGATIVE && b !== 1n ? 0n : int64(a * b));

/**
 * Quantity.MilliValue() of what ParseQuantity leaves, overflow included: an int64Amount scaled up
 * by 10^k wraps for k in {1, 2, 3, 6, 9} and is 0 otherwise; an inf.Dec keeps the low 64 bits.
 */
export function milliValue(amount: QuantityAmount): bigint {
  if ('int64' in amount) {
    const { int64: value, scale } = amount;
    if (scale < -3) {
      // negativeScaleInt64: divided down, a fraction rounded away from zero
      const den = pow10(-3 - scale);
      const q = value / den;
      return value % den === 0n ? q : q + (value > 0n ? 1n : -1n);
    }
    const k = scale + 3;
    if (k === 0) return value;
    if ([1, 2, 3, 6, 9].includes(k)) return wrapMultiply(value, pow10(k));
    let v = value;
    for (let i = 0; i < k; i++) {
      const next = v * 10n;
      if (next !== int64(next)) return 0n;
      v = next;
    }
    return v;
  }
  const dif = -amount.exponent - 3;
  const u = amount.unscaled;
  if (dif === 0) return int64(u);
  if (dif < 0) return int64(int64(u) * (-dif <= 18 ? pow10(-dif) : MOST_NEGATIVE));
  const den = pow10(dif);
  if (u < MAX_ALLOWED && dif < 19 && u >= MOST_NEGATIVE) {
    const q = u / den;
    return u % den === 0n ? q : q + 1n;
  }
  // big.Int DivMod: Euclidean, the remainder never negative
  let q = u / den;
  let r = u % den;
  if (r < 0n) { q -= 1n; r += den; }
  return int64(q) + (r === 0n ? 0n : 1n);
}

/**
 * Parses a quantity (resource.ParseQuantity); undefined when malformed. Rounds up below nano-units.
 * A number is read as its JSON text.
 */
export function parseQuantity(q: string | number): Quantity | undefined {
  const r = goParseQuantity(typeof q === 'number' ? String(q) : q);
  return 'error' in r ? undefined : r.quantity;
}

/** Factors of `base` moved out of `v`: the rest and how many there were. */
function removeFactors(v: bigint, base: bigint): [bigint, number] {
  let times = 0;
  while (v !== 0n && v % base === 0n) { v /= base; times++; }
  return [v, times];
}

const DECIMAL_SUFFIX_OF = new Map(Object.entries(DECIMAL).map(([k, e]) => [e, k]));
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** Quantity.String() (CanonicalizeBytes): the canonical text in the quantity's format. */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI' && ((q.nano > -1024n * NANO && q.nano < 1024n * NANO) || q.nano % NANO !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    const [amount, exponent] = removeFactors(q.nano / NANO, 1024n);
    // beyond Ei there is no suffix: Go prints the number alone
    return `${amount}${BINARY_SUFFIXES[exponent] ?? ''}`;
  }
  // trailing zeros counted on the text: dividing a huge value by 10 one digit at a time is quadratic
  const digits = q.nano.toString();
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  let amount = digits.slice(0, end);
  let exponent = digits.length - end - 9;
  while (exponent % 3 !== 0) { amount += '0'; exponent--; }
  if (format === 'DecimalExponent') return `${amount}${exponent === 0 ? '' : `e${exponent}`}`;
  // beyond E there is no suffix either: "1000E" prints as "1"
  return `${amount}${DECIMAL_SUFFIX_OF.get(exponent) ?? ''}`;
}

/** q + y; a zero q takes y's format, as Quantity.Add does. */
export const addQuantity = (q: Quantity, y: Quantity): Quantity => ({ nano: q.nano + y.nano, format: q.nano === 0n ? y.format : q.format });
export const cmpQuantity = (a: Quantity, b: Quantity): number => (a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0);

/** The text a quantity marshals back to after a decode (UnmarshalJSON then MarshalJSON); undefined when malformed. */
export function canonicalQuantityText(q: string | number): string | undefined {
  const r = goParseQuantity(typeof q === 'number' ? String(q) : q);
  if ('error' in r) return undefined;
  return r.cached ?? formatQuantity(r.quantity);
}
