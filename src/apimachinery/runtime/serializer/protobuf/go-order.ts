// The key order Go's JSON encoder gives a built-in object: a struct's fields in declaration order
// (embedded structs' fields at the embedding's place), a map's keys sorted, and the TypeMeta
// fields (kind, apiVersion) first. Decoded objects are built in wire order (field numbers), with
// absent nil lists added last and map entries as written; kube answers with the Go order, which
// clients that print or stream JSON see. Declaration order comes from the Go struct facts
// (descriptors' goOrder) where it is not the field-number order.
// Counterpart of encoding/json's field and map key order over the types of k8s.io/api.
import type { FieldInfo, MessageType } from './descriptors.ts';

type Obj = Record<string, unknown>;

const ranks = new WeakMap<MessageType, ReadonlyMap<string, number>>();

/** Each JSON key's place in the message's Go order, embedded structs expanded. */
function rankOf(t: MessageType): ReadonlyMap<string, number> {
  let r = ranks.get(t);
  if (r !== undefined) return r;
  const m = new Map<string, number>();
  const add = (msg: MessageType): void => {
    const byJSON = new Map(msg.fields.map((f) => [f.json, f]));
    const names = msg.goOrder ?? msg.fields.map((f) => f.json);
    for (const n of names) {
      const f = byJSON.get(n);
      if (f?.inline === true && f.message !== undefined) add(f.message);
      else if (!m.has(n)) m.set(n, m.size);
    }
  };
  add(t);
  r = m;
  ranks.set(t, r);
  return r;
}

function inOrder(keys: readonly string[], rank: (k: string) => number): boolean {
  let last = -1;
  for (const k of keys) {
    const n = rank(k);
    if (n < last) return false;
    last = n;
  }
  return true;
}

function rebuilt(obj: Obj, keys: readonly string[]): Obj {
  const out: Obj = {};
  // Map keys are data: "__proto__" must stay a member.
  for (const k of keys) Object.defineProperty(out, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/** A map field's object with its keys sorted as Go's encoder sorts them (byte order). */
export function sortedMap(m: Obj): Obj {
  const keys = Object.keys(m);
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.every((k, i) => k === keys[i]) ? m : rebuilt(m, sorted);
}

/**
 * `obj` (the JSON form of message `t`) with its keys in Go's order: the same object when they
 * already are. Keys the message does not know stay last, in their order. `typeMeta` puts kind and
 * apiVersion first (a top-level object). Map fields are sorted too; nested messages are left to
 * the caller (the decoder orders each as it builds it).
 */
export function goOrdered(obj: Obj, t: MessageType, typeMeta = false): Obj {
  for (const f of t.fields) sortMapField(obj, f);
  const rank = rankOf(t);
  const head = typeMeta ? ['kind', 'apiVersion'] : [];
  const at = (k: string): number => {
    const h = head.indexOf(k);
    return h >= 0 ? h - head.length : rank.get(k) ?? Number.MAX_SAFE_INTEGER;
  };
  const keys = Object.keys(obj);
  if (inOrder(keys, at)) return obj;
  return rebuilt(obj, keys.map((k, i) => ({ k, i, n: at(k) })).sort((a, b) => a.n - b.n || a.i - b.i).map((x) => x.k));
}

function sortMapField(obj: Obj, f: FieldInfo): void {
  if (f.inline && f.message !== undefined) {
    for (const g of f.message.fields) sortMapField(obj, g);
    return;
  }
  if (!f.map) return;
  const m = obj[f.json];
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return;
  const sorted = sortedMap(m as Obj);
  if (sorted !== m) obj[f.json] = sorted;
}

/**
 * goOrdered at every level of an object of message `t` (one decoded from JSON, or built by a
 * conversion): nested messages, lists of them and map values too. Returns `obj` itself where
 * nothing moves.
 */
export function goOrderedDeep<T extends object>(value: T, t: MessageType, typeMeta = false): T {
  const obj = value as Obj;
  const visit = (o: Obj, msg: MessageType): void => {
    for (const f of msg.fields) {
      if (f.inline && f.message !== undefined) { visit(o, f.message); continue; }
      const sub = f.map ? f.value?.message : f.message;
      if (sub === undefined || sub.special !== undefined) continue;
      const v = o[f.json];
      if (f.map && isObj(v)) {
        for (const k of Object.keys(v)) { const x = v[k]; if (isObj(x)) setIfMoved(v, k, x, goOrderedDeep(x, sub)); }
      } else if (f.repeated && Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) { const x: unknown = v[i]; if (isObj(x)) { const y = goOrderedDeep(x, sub); if (y !== x) v[i] = y; } }
      } else if (isObj(v)) {
        setIfMoved(o, f.json, v, goOrderedDeep(v, sub));
      }
    }
  };
  visit(obj, t);
  return goOrdered(obj, t, typeMeta) as T;
}

// Map keys are data ("__proto__" too): set as own members.
const setIfMoved = (o: Obj, k: string, before: Obj, after: Obj): void => {
  if (after !== before) Object.defineProperty(o, k, { value: after, enumerable: true, writable: true, configurable: true });
};
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
