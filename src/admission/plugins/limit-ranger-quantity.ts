// The bits of resource.Quantity arithmetic LimitRanger needs, on the shared exact parser
// (apimachinery/resource/quantity.ts): Value and MilliValue for comparisons, sums, and the text
// Quantity.String() prints in its messages.
import {
  addQuantity, cmpQuantity, formatQuantity, goParseQuantity, milliValue as goMilliValue,
  type Quantity, type QuantityAmount,
} from '../../apimachinery/resource/quantity.ts';

/** A parsed quantity: its value, how ParseQuantity holds it, and the text String() prints. */
export interface Q { readonly quantity: Quantity; readonly amount: QuantityAmount; readonly text: string }

const NANO = 1_000_000_000n;

/** resource.ParseQuantity of a stored value (a number is read as its JSON text); undefined when malformed. */
export function toQ(q: string | number): Q | undefined {
  const r = goParseQuantity(typeof q === 'number' ? JSON.stringify(q) : q);
  if ('error' in r) return undefined;
  return { quantity: r.quantity, amount: r.amount, text: r.cached ?? formatQuantity(r.quantity) };
}

/** Quantity.MilliValue(), int64 overflow included. */
export function milliValue(q: Q): bigint {
  return goMilliValue(q.amount);
}

/** Quantity.Value(): rounded up (away from zero) to a whole number, in int64. */
export function wholeValue(q: Q): bigint {
  const n = q.quantity.nano;
  const whole = n / NANO + (n % NANO === 0n ? 0n : n > 0n ? 1n : -1n);
  return BigInt.asIntN(64, whole);
}

/** x + y in x's format (Quantity.Add); the sum prints canonically, as a changed Quantity does. */
export function addQ(x: Q, y: Q): Q {
  const quantity = addQuantity(x.quantity, y.quantity);
  const nano = quantity.nano;
  const amount: QuantityAmount = BigInt.asIntN(64, nano) === nano ? { int64: nano, scale: -9 } : { unscaled: nano, exponent: -9 };
  return { quantity, amount, text: formatQuantity(quantity) };
}

/** x > y. */
export const greater = (x: Q, y: Q): boolean => cmpQuantity(x.quantity, y.quantity) > 0;

/** Quantity.String() of a quantity. */
export function canonical(q: Q): string {
  return q.text;
}
