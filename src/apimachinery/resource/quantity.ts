// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): exact values (nano-units in a bigint),
// the format a quantity was written in, its canonical text ("1500m", "2Gi", "2k"), and the text
// a decoded quantity marshals back to: kube keeps the client's string when ParseQuantity deems it
// canonical already ("100m", "+1", "1e3") and prints Quantity.String() otherwise ("1.5" is "1500m").

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
export interface Quantity { readonly nano: bigint; readonly format: QuantityFormat }

const NANO = 1_000_000_000n;
const BINARY: Readonly<Record<string, bigint>> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const RE = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE])?$/;

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const ceilDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? (a + b - 1n) / b : -((-a) / b));

export const quantity = (n: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity => ({ nano: BigInt(n) * NANO, format });
export const ZERO: Quantity = { nano: 0n, format: 'DecimalSI' };

/** Parses a quantity (resource.ParseQuantity); undefined when malformed. Rounds up below nano-units. */
export function parseQuantity(q: string | number): Quantity | undefined {
  const text = typeof q === 'number' ? String(q) : q;
  const m = RE.exec(text);
  if (m === null) return undefined;
  const [, sign = '', digits = '', suffix = ''] = m;
  const [whole = '', frac = ''] = digits.split('.');
  let value = BigInt((whole === '' ? '0' : whole) + frac); // scaled by 10^-frac.length
  let den = pow10(frac.length);
  let format: QuantityFormat = 'DecimalSI';
  if (suffix in BINARY) {
    value *= BINARY[suffix] ?? 1n;
    format = 'BinarySI';
  } else {
    const exp = /^[eE]/.test(suffix) ? Number(suffix.slice(1)) : DECIMAL[suffix] ?? 0;
    if (/^[eE]/.test(suffix)) format = 'DecimalExponent';
    if (exp + 9 >= 0) value *= pow10(exp + 9);
    else den *= pow10(-(exp + 9));
    return { nano: (sign === '-' ? -1n : 1n) * ceilDiv(value, den), format };
  }
  value *= NANO;
  return { nano: (sign === '-' ? -1n : 1n) * ceilDiv(value, den), format };
}

/** Quantity.String(): the canonical text in the quantity's format. */
export function formatQuantity(q: Quantity): string {
  if (q.nano === 0n) return '0';
  const neg = q.nano < 0n;
  const abs = neg ? -q.nano : q.nano;
  const sign = neg ? '-' : '';
  if (q.format === 'BinarySI' && abs >= 1024n * NANO && abs % NANO === 0n) {
    let units = abs / NANO;
    let i = 0;
    const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
    while (i < suffixes.length - 1 && units % 1024n === 0n) { units /= 1024n; i++; }
    return `${sign}${units}${suffixes[i] ?? ''}`;
  }
  // Decimal: the largest power of 1000 that leaves an integer mantissa.
  let exp = -9;
  let mantissa = abs;
  while (exp < 18 && mantissa % 1000n === 0n) { mantissa /= 1000n; exp += 3; }
  if (q.format === 'DecimalExponent') return `${sign}${mantissa}${exp === 0 ? '' : `e${exp}`}`;
  const suffix = Object.entries(DECIMAL).find(([, e]) => e === exp)?.[0] ?? '';
  return `${sign}${mantissa}${suffix}`;
}

/** q + y; a zero q takes y's format, as Quantity.Add does. */
export const addQuantity = (q: Quantity, y: Quantity): Quantity => ({ nano: q.nano + y.nano, format: q.nano === 0n ? y.format : q.format });
export const cmpQuantity = (a: Quantity, b: Quantity): number => (a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0);

const SUFFIX_EXPONENT: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * ParseQuantity's fast path keeps the text as given when its digits are already canonical: decimal
 * with a scale that is a multiple of 3, no trailing "000" and no leading zero; binary with a
 * whole multiple of a power of 1024 that is not a multiple of 8.
 */
function keepsText(text: string): boolean {
  const m = RE.exec(text);
  if (m === null) return false;
  const [, , digits = '', suffix = ''] = m;
  const [whole = '', frac = ''] = digits.split('.');
  const stripped = whole.replace(/^0+/, '');
  const num = stripped === '' ? '0' : stripped;
  const shifted = num + frac;
  if (shifted.length > 18) return false;
  if (suffix in SUFFIX_EXPONENT) {
    if (frac !== '') return false;
    const exponent = SUFFIX_EXPONENT[suffix] ?? 0;
    const precision = 15 - num.length - Math.trunc(exponent * 3 / 10) - 1;
    return precision >= 0 && exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n;
  }
  const exponent = /^[eE]/.test(suffix) ? Number(suffix.slice(1)) : DECIMAL[suffix] ?? 0;
  const scale = exponent - frac.length;
  return scale >= -9 && scale % 3 === 0 && !shifted.endsWith('000') && !shifted.startsWith('0');
}

/** The text a quantity marshals back to after a decode (UnmarshalJSON then MarshalJSON); undefined when malformed. */
export function canonicalQuantityText(q: string | number): string | undefined {
  const text = typeof q === 'number' ? String(q) : q;
  if (text === '0') return '0';
  const v = parseQuantity(text);
  if (v === undefined) return undefined;
  return keepsText(text) ? text : formatQuantity(v);
}
