// JSON values as the patch engines see them, and how Go's encoding/json + fmt would see them:
// the strategic merge patch engine compares reflect types and prints values with %v in its
// error messages, so kapi needs the same classification and formatting to match kube's texts.

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject { [key: string]: JsonValue }

/**
 * The Go dynamic type a value has after kube-apiserver decodes JSON with integers preserved
 * (sigs.k8s.io/json UnmarshalCaseSensitivePreserveInts): whole numbers are int64, others float64.
 */
export type GoKind = 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64' | 'nil';

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function goKind(v: JsonValue | undefined): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'object': return 'map';
    case 'string': return 'string';
    case 'boolean': return 'bool';
    default: return Number.isInteger(v) ? 'int64' : 'float64';
  }
}

/** reflect.TypeOf(v).String() as printed by %s; a nil interface prints as Go's bad-verb form. */
export function goTypeName(v: JsonValue | undefined): string {
  switch (goKind(v)) {
    case 'map': return 'map[string]interface {}';
    case 'slice': return '[]interface {}';
    case 'nil': return '%!s(<nil>)';
    default: return goKind(v);
  }
}

/** strconv.FormatFloat(f, 'g', -1, 64), which is what %v prints for a float64. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  const [mant = '0', expStr = '0'] = f.toExponential().split('e');
  const exp = Number(expStr);
  // %v uses the shortest digits and switches to exponent form when exp < -4 or exp >= 6.
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mant}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

/** fmt's %v of a decoded JSON value: maps print as map[k:v ...] with sorted keys, slices as [a b]. */
export function goFormat(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  switch (typeof v) {
    case 'object': {
      const keys = Object.keys(v).sort(compareGoStrings);
      return `map[${keys.map((k) => `${k}:${goFormat(v[k])}`).join(' ')}]`;
    }
    case 'number': return Number.isInteger(v) ? String(v) : goFloat(v);
    default: return String(v);
  }
}

/**
 * Go compares strings by UTF-8 bytes, which orders like code points. UTF-16 units order the
 * same way except that surrogates (U+D800-DFFF, the halves of code points above U+FFFF) must
 * sort after U+E000-FFFF; comparing units with that fix-up needs no allocation per call.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) < codePointRank(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const codePointRank = (u: number): number => (u >= 0xe000 ? u - 0x800 : u >= 0xd800 ? u + 0x2000 : u);

/** Go's == on two interface values holding decoded JSON scalars (same dynamic type and value). */
export function goScalarEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (goKind(a) !== goKind(b)) return false;
  if (typeof a === 'object' || typeof b === 'object') return (a ?? null) === (b ?? null);
  return a === b;
}

/** reflect.DeepEqual over decoded JSON. */
export function deepEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (goKind(a) !== goKind(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return (a ?? null) === (b ?? null);
}

/** Sorts scalars by their %v text, stably (SortableSliceOfScalars). */
export function sortScalars(s: JsonValue[]): JsonValue[] {
  return s
    .map((v, i) => ({ v, i, t: goFormat(v) }))
    .sort((x, y) => compareGoStrings(x.t, y.t) || x.i - y.i)
    .map((e) => e.v);
}

/**
 * A Map key under which two values are equal exactly when goScalarEqual says so: scalars by Go
 * type and value, nil with nil, maps and slices by identity.
 */
export function eqKey(v: JsonValue | undefined): unknown {
  const kind = goKind(v);
  if (kind === 'nil') return 'nil';
  if (kind === 'map' || kind === 'slice') return v;
  return `${kind}:${String(v)}`;
}

/**
 * Removes repeated scalars with Go's swap-with-last algorithm, so the order matches kube's: for
 * each i, every later duplicate of s[i] (first to last) is overwritten by the current last
 * element, which is checked again. Go compares all pairs; here the duplicates of each value are
 * found through a list of their positions, so the cost is n log n, not n squared.
 */
export function deduplicateScalars(input: JsonValue[]): JsonValue[] {
  const s = [...input];
  const keys = s.map(eqKey);
  const at = new Map<unknown, number[]>();
  keys.forEach((k, i) => {
    const l = at.get(k);
    if (l === undefined) at.set(k, [i]); else l.push(i);
  });
  if (at.size === s.length) return s;
  let last = s.length - 1;
  for (let i = 0; i < last; i++) {
    const k = keys[i];
    // Positions may be stale (moved past the end) or out of order (registered by a move).
    const later = (at.get(k) ?? []).filter((p) => p > i).sort((a, b) => a - b);
    at.delete(k);
    for (const p of later) {
      if (p > last) break;
      while (p <= last && keys[p] === k) {
        s[p] = s[last] ?? null;
        keys[p] = keys[last];
        if (keys[p] !== k && p < last) at.get(keys[p])?.push(p);
        last--;
      }
    }
  }
  s.length = Math.max(0, last + 1);
  return s;
}

/**
 * o[key] = v for a key that is data: "__proto__" is the one key whose plain assignment sets the
 * prototype (an accessor on Object.prototype) instead of a member, so it is defined instead.
 */
export function setKey<T>(o: Record<string, T>, key: string, v: T): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
  else o[key] = v;
}

export function deepCopy<T extends JsonValue>(v: T): T {
  return structuredClone(v);
}
