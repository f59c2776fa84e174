// resource.Quantity as quota needs it: exact sums and comparisons (values held as nano-units in a
// bigint), the format a quantity was written in, and its canonical text ("1500m", "2Gi", "2k").
// Also the ResourceList helpers of k8s.io/apiserver/pkg/quota/v1 (add, subtract, mask, compare).

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
export interface Quantity { readonly nano: bigint; readonly format: QuantityFormat }
export type Usage = Map<string, Quantity>;

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

/** A ResourceList of text quantities as a Usage; entries that do not parse are left out. */
export function toUsage(list: Readonly<Record<string, string | number>> | undefined): Usage {
  const out: Usage = new Map();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = parseQuantity(v);
    if (q !== undefined) out.set(k, q);
  }
  return out;
}

export function fromUsage(u: Usage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...u.keys()].sort()) out[k] = formatQuantity(u.get(k) ?? ZERO);
  return out;
}

/** quota.Add. */
export function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur === undefined ? v : addQuantity(cur, v));
  }
  return out;
}

/** quota.SubtractWithNonNegativeResult: a - b, floored at zero, over a's keys and b's. */
export function subtractNonNegative(a: Usage, b: Usage): Usage {
  const out: Usage = new Map();
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? ZERO;
    const d = x.nano - (b.get(k)?.nano ?? 0n);
    out.set(k, { nano: d > 0n ? d : 0n, format: x.format });
  }
  return out;
}

/** quota.Mask: only the named entries. */
export function mask(u: Usage, names: Iterable<string>): Usage {
  const out: Usage = new Map();
  for (const n of names) {
    const v = u.get(n);
    if (v !== undefined) out.set(n, v);
  }
  return out;
}

export const removeZeros = (u: Usage): Usage => new Map([...u].filter(([, v]) => v.nano !== 0n));

/** quota.LessThanOrEqual: the names of a whose value is above b's (names missing from b pass). */
export function exceeded(a: Usage, b: Usage): string[] {
  const out: string[] = [];
  for (const [k, v] of a) {
    const limit = b.get(k);
    if (limit !== undefined && cmpQuantity(v, limit) > 0) out.push(k);
  }
  return out;
}

/** prettyPrint of the admission plugin: "name=value" sorted by name, comma separated. */
export const prettyPrint = (u: Usage): string =>
  [...u.keys()].sort().map((k) => `${k}=${formatQuantity(u.get(k) ?? ZERO)}`).join(',');

/** Usage equality by value (apiequality.Semantic on ResourceLists). */
export function equalUsage(a: Usage, b: Usage): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k)?.nano !== v.nano) return false;
  return true;
}
