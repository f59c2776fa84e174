// The bits of resource.Quantity arithmetic LimitRanger needs: milli-values for comparisons,
// sums, and the canonical text that Quantity.String() prints in its messages.

const BINARY_SUFFIX: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL_SUFFIX: Readonly<Record<string, number>> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const QUANTITY = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE])?$/;

/** resource.ParseQuantity's value (admission sits below apis/, so it parses for itself); undefined when malformed. */
function parseValue(q: string | number): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  const m = QUANTITY.exec(q);
  if (m === null) return undefined;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix in BINARY_SUFFIX) return n * (BINARY_SUFFIX[suffix] ?? 1);
  if (/^[eE]/.test(suffix)) return n * 10 ** Number(suffix.slice(1));
  return n * (DECIMAL_SUFFIX[suffix] ?? 1);
}

export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/** A parsed quantity: its value, the format it was written in, and the text as written. */
export interface Q { readonly value: number; readonly format: QuantityFormat; readonly text: string }

export function toQ(q: string | number): Q | undefined {
  const value = parseValue(q);
  if (value === undefined) return undefined;
  const text = String(q);
  const format: QuantityFormat = /[KMGTPE]i$/.test(text) ? 'BinarySI' : /[eE][+-]?[0-9]+$/.test(text) ? 'DecimalExponent' : 'DecimalSI';
  return { value, format, text };
}

/** Quantity.MilliValue(): the value in thousandths, rounded up. */
export function milliValue(q: Q): number {
  return Math.ceil(Math.round(q.value * 1e3 * 1e6) / 1e6);
}

/** Quantity.Value(): rounded up to a whole number. */
export function wholeValue(q: Q): number {
  return Math.ceil(Math.round(q.value * 1e6) / 1e6);
}

/** x + y, in x's format (Quantity.Add keeps the receiver's format). */
export function addQ(x: Q, y: Q): Q {
  const value = Math.round((x.value + y.value) * 1e9) / 1e9;
  return { value, format: x.format, text: formatQuantity(value, x.format) };
}

const DECIMAL: readonly [number, string][] = [[1e18, 'E'], [1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
const BINARY: readonly [number, string][] = [[2 ** 60, 'Ei'], [2 ** 50, 'Pi'], [2 ** 40, 'Ti'], [2 ** 30, 'Gi'], [2 ** 20, 'Mi'], [2 ** 10, 'Ki']];

/** The canonical text of a value (Quantity.String()): the largest suffix that keeps an integer mantissa. */
export function formatQuantity(value: number, format: QuantityFormat): string {
  const milli = Math.ceil(Math.round(value * 1e3 * 1e6) / 1e6);
  if (milli % 1000 !== 0) return `${milli}m`;
  const whole = milli / 1000;
  if (whole === 0) return '0';
  // A binary quantity under 1024 prints as a decimal one; above, a power of 1024 or plain bytes.
  if (format === 'BinarySI' && Math.abs(whole) >= 1024) {
    for (const [scale, suffix] of BINARY) if (whole % scale === 0) return `${whole / scale}${suffix}`;
    return String(whole);
  }
  if (format === 'DecimalExponent') {
    let exp = 0;
    let m = whole;
    while (m % 1000 === 0) { m /= 1000; exp += 3; }
    return exp === 0 ? String(m) : `${m}e${exp}`;
  }
  for (const [scale, suffix] of DECIMAL) if (whole % scale === 0) return `${whole / scale}${suffix}`;
  return String(whole);
}

/** Quantity.String() of a quantity as written. */
export function canonical(q: Q): string {
  return formatQuantity(q.value, q.format);
}
