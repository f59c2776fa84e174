// A quantity's value as a float, enough to compare requests with limits; the parse is
// resource.ParseQuantity's (apimachinery/resource/quantity.ts), so both refuse the same texts.
import { formatQuantity, goParseQuantity, milliValue, parseQuantity as parseExact } from '../../../apimachinery/resource/quantity.ts';

/** The value of a quantity, or undefined when it does not parse (resource.ParseQuantity). */
export function parseQuantity(q: string | number): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  const v = parseExact(q);
  return v === undefined ? undefined : Number(v.nano) / 1e9;
}

/** The quantity as the printers show it (kube canonicalizes; we show what was stored). */
export function quantityString(q: string | number | undefined): string {
  return q === undefined ? '0' : String(q);
}

/**
 * For a memory or storage quantity with a fractional number of bytes (MilliValue() % 1000 != 0,
 * int64 overflow included, as kube computes it), its text as Quantity.String() prints it;
 * undefined when it is a whole number of bytes or does not parse.
 */
export function fractionalBytes(q: string | number | undefined): string | undefined {
  if (q === undefined) return undefined;
  const r = goParseQuantity(typeof q === 'number' ? String(q) : q);
  if ('error' in r || milliValue(r.amount) % 1000n === 0n) return undefined;
  return r.cached ?? formatQuantity(r.quantity);
}
