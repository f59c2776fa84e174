// resource.Quantity parsing, enough to compare requests with limits and reject malformed
// values ("1Gi", "500m", "2", "1e3", "0.5").
const binarySuffixes: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimalSuffixes: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const quantityRe = /^([+-]?[0-9.]+)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE])?$/;

/** The value of a quantity, or undefined when it does not parse (resource.ParseQuantity). */
export function parseQuantity(q: string | number): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  const m = quantityRe.exec(q.trim() === q ? q : '');
  if (m === null) return undefined;
  const digits = m[1] ?? '';
  if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/.test(digits)) return undefined;
  const n = Number(digits);
  const suffix = m[2] ?? '';
  if (suffix in binarySuffixes) return n * (binarySuffixes[suffix] ?? 1);
  if (/^[eE]/.test(suffix)) return n * 10 ** Number(suffix.slice(1));
  return n * (decimalSuffixes[suffix] ?? 1);
}

/** The quantity as the printers show it (kube canonicalizes; we show what was stored). */
export function quantityString(q: string | number | undefined): string {
  return q === undefined ? '0' : String(q);
}

/**
 * For a memory or storage quantity with a fractional number of bytes (MilliValue() % 1000 != 0),
 * its canonical text ("1500m", "100u"); undefined when it is a whole number of bytes or does not parse.
 */
export function fractionalBytes(q: string | number | undefined): string | undefined {
  if (q === undefined) return undefined;
  const v = parseQuantity(q);
  if (v === undefined) return undefined;
  const milli = Math.ceil(Math.round(v * 1e3 * 1e6) / 1e6);
  if (milli % 1000 === 0) return undefined;
  for (const [scale, suffix] of [[1e3, 'm'], [1e6, 'u'], [1e9, 'n']] as const) {
    const scaled = Math.round(v * scale * 1e3) / 1e3;
    if (Number.isInteger(scaled)) return `${scaled}${suffix}`;
  }
  return `${Math.ceil(v * 1e9)}n`;
}
