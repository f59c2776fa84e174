// The key order kube gives an unstructured object (a custom resource): it holds JSON objects as Go
// maps, and Go's JSON encoder writes a map's keys sorted (byte order), at every level.
// Counterpart of encoding/json's map key order over k8s.io/apimachinery's unstructured.Unstructured.

type Obj = Record<string, unknown>;

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `v` with every object's keys sorted, at every level; objects already sorted are kept. */
export function unstructuredOrder(v: unknown): unknown {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = unstructuredOrder(x);
      if (y !== x) v[i] = y;
    }
    return v;
  }
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Obj;
  const keys = Object.keys(o);
  for (const k of keys) {
    const x = o[k];
    const y = unstructuredOrder(x);
    if (y !== x) Object.defineProperty(o, k, { value: y, enumerable: true, writable: true, configurable: true });
  }
  const sorted = [...keys].sort(byteOrder);
  if (sorted.every((k, i) => k === keys[i])) return o;
  const out: Obj = {};
  // Keys are data: "__proto__" must stay a member.
  for (const k of sorted) Object.defineProperty(out, k, { value: o[k], enumerable: true, writable: true, configurable: true });
  return out;
}
