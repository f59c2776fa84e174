// resource.Quantity as quota needs it (src/apimachinery/resource/quantity.ts, re-exported here).
// Also the ResourceList helpers of k8s.io/apiserver/pkg/quota/v1 (add, subtract, mask, compare).
import { addQuantity, cmpQuantity, formatQuantity, parseQuantity, ZERO, type Quantity } from '../../apimachinery/resource/quantity.ts';

export { addQuantity, cmpQuantity, formatQuantity, parseQuantity, quantity, ZERO, type Quantity, type QuantityFormat } from '../../apimachinery/resource/quantity.ts';
export type Usage = Map<string, Quantity>;

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
