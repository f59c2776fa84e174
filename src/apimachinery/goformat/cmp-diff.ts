// The report of github.com/google/go-cmp's cmp.Diff(x, y), which kube appends to some "may not
// change" messages (ValidatePersistentVolumeClaimUpdate). Values are described as Go values
// (GoValue: the internal type's field names and type names), compared the way cmp compares
// them, and printed with cmp's layout: "  " / "- " / "+ " prefixes, a tab per level, aligned
// keys, at most two equal records of context around a change, "... // N identical fields",
// types shown only where a composite value differs, zero fields elided from printed structs.
//
// cmp randomly prints U+00A0 instead of U+0020 in the two-character prefixes (per process, to
// keep callers from depending on its output); this always prints regular spaces, as cmp does
// with its deterministic flag.

import { goQuote } from './quote.ts';
import { appendEllipsis, compact, expand, indent, Line, List, NIL, nodeEqual, render, Wrap, type DiffMode, type Stats, type TextNode, type TextRecord } from './cmp-text.ts';

export interface GoField { readonly name: string; readonly value: GoValue }

/** A Go value with just what cmp's report needs: its kind, its type's name, its parts. */
export type GoValue =
  | { readonly kind: 'string'; readonly value: string; /** A fmt.Stringer: printed s"…". */ readonly stringer?: boolean }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'ptr'; readonly elem: GoValue | null }
  | {
    readonly kind: 'struct'; readonly type: string; readonly fields: readonly GoField[];
    /** The type's Equal method: cmp compares with it and treats the value as a leaf. */
    readonly equal?: (x: GoValue, y: GoValue) => boolean;
  }
  | { readonly kind: 'slice'; readonly type: string; readonly elems: readonly GoValue[] | null }
  | { readonly kind: 'map'; readonly type: string; readonly entries: readonly (readonly [GoValue, GoValue])[] | null };

// ---- comparison: the tree of value nodes cmp's reporter builds ----------------------------------

interface ValueNode {
  readonly x: GoValue | undefined;
  readonly y: GoValue | undefined;
  numSame: number;
  numDiff: number;
  numChildren: number;
  maxDepth: number;
  records?: Rec[];
  value?: ValueNode;
}
interface Rec { readonly key: string; readonly node: ValueNode }

const leaf = (x: GoValue | undefined, y: GoValue | undefined, equal: boolean): ValueNode =>
  ({ x, y, numSame: equal ? 1 : 0, numDiff: equal ? 0 : 1, numChildren: 0, maxDepth: 0 });

function adopt(parent: ValueNode, child: ValueNode): void {
  parent.numSame += child.numSame;
  parent.numDiff += child.numDiff;
  parent.numChildren += child.numChildren + 1;
  parent.maxDepth = Math.max(parent.maxDepth, child.maxDepth + 1);
}

function compare(x: GoValue | undefined, y: GoValue | undefined): ValueNode {
  if (x === undefined || y === undefined) return leaf(x, y, x === y);
  switch (x.kind) {
    case 'string': case 'int': case 'bool':
      return leaf(x, y, y.kind === x.kind && y.value === x.value);
    case 'ptr': {
      if (y.kind !== 'ptr') return leaf(x, y, false);
      if (x.elem === null || y.elem === null) return leaf(x, y, x.elem === y.elem);
      const n: ValueNode = { x, y, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      n.value = compare(x.elem, y.elem);
      adopt(n, n.value);
      return n;
    }
    case 'struct': {
      if (y.kind !== 'struct') return leaf(x, y, false);
      if (x.equal !== undefined) return leaf(x, y, x.equal(x, y));
      const n: ValueNode = { x, y, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0, records: [] };
      x.fields.forEach((f, i) => {
        const child = compare(f.value, y.fields[i]?.value);
        n.records?.push({ key: f.name, node: child });
        adopt(n, child);
      });
      return n;
    }
    case 'slice': {
      if (y.kind !== 'slice') return leaf(x, y, false);
      if (x.elems === null || y.elems === null) return leaf(x, y, x.elems === y.elems);
      const n: ValueNode = { x, y, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0, records: [] };
      for (const [a, b] of editScript(x.elems, y.elems)) {
        const child = compare(a, b);
        n.records?.push({ key: '', node: child });
        adopt(n, child);
      }
      return n;
    }
    case 'map': {
      if (y.kind !== 'map') return leaf(x, y, false);
      if (x.entries === null || y.entries === null) return leaf(x, y, x.entries === y.entries);
      const n: ValueNode = { x, y, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0, records: [] };
      const keys = new Map<string, GoValue>();
      for (const [k] of [...x.entries, ...y.entries]) keys.set(mapKeyText(k), k);
      // Indexed once (the first entry of a key wins, as a search would): no scan per key.
      const index = (entries: readonly (readonly [GoValue, GoValue])[]): Map<string, GoValue> => {
        const m = new Map<string, GoValue>();
        for (const [kk, v] of entries) if (!m.has(mapKeyText(kk))) m.set(mapKeyText(kk), v);
        return m;
      };
      const xs = index(x.entries);
      const ys = index(y.entries);
      for (const [text, k] of [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const child = compare(xs.get(text), ys.get(text));
        n.records?.push({ key: formatMapKey(k), node: child });
        adopt(n, child);
      }
      return n;
    }
  }
}

const mapKeyText = (k: GoValue): string => (k.kind === 'string' || k.kind === 'int' || k.kind === 'bool' ? String(k.value) : JSON.stringify(k));

/** Pairs of slice elements: equal ones matched (longest common subsequence), similar leftovers as modified. */
function editScript(xs: readonly GoValue[], ys: readonly GoValue[]): [GoValue | undefined, GoValue | undefined][] {
  const eq = (i: number, j: number): boolean => compare(xs[i], ys[j]).numDiff === 0;
  const n = xs.length;
  const m = ys.length;
  // Every pair is compared: beyond this many, equal heads and tails are matched and the rest is
  // paired in order, so a hostile update of a huge list costs linear time, not n times m.
  if (n * m > MAX_EDIT_PAIRS) return positionalScript(xs, ys, eq);
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] = eq(i, j) ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const out: [GoValue | undefined, GoValue | undefined][] = [];
  let gapX: GoValue[] = [];
  let gapY: GoValue[] = [];
  const flush = (): void => {
    let k = 0;
    for (; k < Math.min(gapX.length, gapY.length); k++) {
      const r = compare(gapX[k], gapY[k]);
      if (r.numSame + 1 < r.numDiff) break; // not similar: reported as removed and inserted
      out.push([gapX[k], gapY[k]]);
    }
    for (const v of gapX.slice(k)) out.push([v, undefined]);
    for (const v of gapY.slice(k)) out.push([undefined, v]);
    gapX = [];
    gapY = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && eq(i, j) && (lcs[i]?.[j] ?? 0) === (lcs[i + 1]?.[j + 1] ?? 0) + 1) {
      flush();
      out.push([xs[i++], ys[j++]]);
    } else if (i < n && (j >= m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) {
      gapX.push(xs[i++] as GoValue);
    } else {
      gapY.push(ys[j++] as GoValue);
    }
  }
  flush();
  return out;
}

const MAX_EDIT_PAIRS = 250_000;

function positionalScript(xs: readonly GoValue[], ys: readonly GoValue[], eq: (i: number, j: number) => boolean): [GoValue | undefined, GoValue | undefined][] {
  const out: [GoValue | undefined, GoValue | undefined][] = [];
  let i = 0;
  while (i < xs.length && i < ys.length && eq(i, i)) { out.push([xs[i], ys[i]]); i++; }
  let tail = 0;
  while (tail < xs.length - i && tail < ys.length - i && eq(xs.length - 1 - tail, ys.length - 1 - tail)) tail++;
  const xm = xs.slice(i, xs.length - tail);
  const ym = ys.slice(i, ys.length - tail);
  const k = Math.min(xm.length, ym.length);
  for (let p = 0; p < k; p++) out.push([xm[p], ym[p]]);
  for (const v of xm.slice(k)) out.push([v, undefined]);
  for (const v of ym.slice(k)) out.push([undefined, v]);
  for (let p = tail; p > 0; p--) out.push([xs[xs.length - p], ys[ys.length - p]]);
  return out;
}

type TypeMode = 'emit' | 'elide' | 'auto';

// ---- formatting values and differences ----------------------------------------------------------

interface Opts {
  readonly diffMode: DiffMode;
  readonly typeMode: TypeMode;
  readonly verbosity: number;
  readonly limit: boolean;
  readonly avoidStringer: boolean;
}

const verbosityOf = (o: Opts): number => Math.min(16, Math.max(0, o.verbosity));

const typeOf = (v: GoValue): string | undefined => (v.kind === 'struct' || v.kind === 'slice' || v.kind === 'map' ? v.type : undefined);

function formatType(o: Opts, v: GoValue, s: TextNode): TextNode {
  const type = typeOf(v);
  if (o.typeMode === 'elide' || type === undefined) return s;
  if (o.typeMode === 'auto' && (nodeEqual(s, NIL) || o.diffMode === ' ')) return s;
  if (s instanceof Wrap && ((s.prefix.startsWith('{') && s.suffix.endsWith('}')) || (s.prefix.startsWith('(') && s.suffix.endsWith(')')))) {
    return new Wrap(type, s, '');
  }
  return new Wrap(type, new Wrap('(', s, ')'), '');
}

/** strconv.Quote, or a raw string literal when that is shorter (cmp's formatString). */
function quote(s: string): string {
  const q = goQuote(s);
  if (q.length === s.length + 2) return q;
  if (!/[`\n]/.test(s) && /^[\P{C}\t]*$/u.test(s)) return `\`${s}\``;
  return q;
}

function formatValue(o: Opts, v: GoValue | undefined): TextNode | undefined {
  if (v === undefined) return undefined;
  let opts = o;
  if (v.kind === 'string' && v.stringer === true && !opts.avoidStringer) return new Line(`s${quote(v.value)}`);
  let out: TextNode;
  switch (v.kind) {
    case 'bool': case 'int': return new Line(String(v.value));
    case 'string': {
      const max = opts.limit ? (1 << verbosityOf(opts)) << 5 : v.value.length;
      return new Line(v.value.length > max + 3 ? `${quote(v.value.slice(0, max))}...` : quote(v.value));
    }
    case 'ptr':
      if (v.elem === null) return NIL;
      return new Wrap('&', formatValue(opts, v.elem) ?? NIL, '');
    case 'struct': {
      const list: TextRecord[] = [];
      let max = v.fields.length;
      if (opts.limit) {
        max = ((1 << verbosityOf(opts)) >> 1) << 2;
        opts = { ...opts, verbosity: opts.verbosity - 1 };
      }
      for (const f of v.fields) {
        if (isZero(f.value)) continue;
        if (list.length === max) { appendEllipsis(list); break; }
        list.push({ diff: '', key: f.name, value: formatValue({ ...opts, typeMode: 'auto' }, f.value) ?? NIL });
      }
      out = new Wrap('{', new List(list), '}');
      break;
    }
    case 'slice': case 'map': {
      const items = v.kind === 'slice' ? v.elems : v.entries;
      if (items === null) return NIL;
      let max = items.length;
      if (opts.limit) {
        max = ((1 << verbosityOf(opts)) >> 1) << 2;
        opts = { ...opts, verbosity: opts.verbosity - 1 };
      }
      const list: TextRecord[] = [];
      const sorted = v.kind === 'map'
        ? [...v.entries ?? []].sort(([a], [b]) => (mapKeyText(a) < mapKeyText(b) ? -1 : mapKeyText(a) > mapKeyText(b) ? 1 : 0))
        : (v.elems ?? []).map((e) => [undefined, e] as const);
      for (const [k, e] of sorted) {
        if (list.length === max) { appendEllipsis(list); break; }
        list.push({ diff: '', key: k === undefined ? '' : formatMapKey(k), value: formatValue({ ...opts, typeMode: 'elide' }, e) ?? NIL });
      }
      out = new Wrap('{', new List(list), '}');
      break;
    }
  }
  return formatType(o, v, out);
}

function formatMapKey(k: GoValue): string {
  const out = formatValue({ diffMode: ' ', typeMode: 'elide', verbosity: 0, limit: false, avoidStringer: false }, k);
  return out === undefined ? '' : render(out).trim();
}

function isZero(v: GoValue): boolean {
  switch (v.kind) {
    case 'string': return v.value === '';
    case 'int': return v.value === 0;
    case 'bool': return !v.value;
    case 'ptr': return v.elem === null;
    case 'struct': return v.fields.every((f) => isZero(f.value));
    case 'slice': return v.elems === null;
    case 'map': return v.entries === null;
  }
}

const withVerbosity = (o: Opts, level: number): Opts => ({ ...o, verbosity: level, limit: true });

function formatDiff(o: Opts, n: ValueNode): TextNode | undefined {
  let opts = o;
  if (opts.diffMode === ' ') opts = withVerbosity(opts, 1);
  else if (verbosityOf(opts) < 3) opts = withVerbosity(opts, 3);
  if (n.maxDepth === 0) {
    switch (opts.diffMode) {
      case '': case ' ': {
        const outx = formatValue(opts, n.x);
        const outy = formatValue(opts, n.y);
        if (outx === undefined || outy === undefined) return outx ?? outy;
        return render(outx).length < render(outy).length ? outx : outy;
      }
      case '-': return formatValue(opts, n.x);
      case '+': return formatValue(opts, n.y);
    }
  }
  const v = (n.x ?? n.y) as GoValue;
  if (v.kind === 'ptr') return new Wrap('&', n.value === undefined ? NIL : formatDiff(opts, n.value) ?? NIL, '');
  return formatType(opts, v, formatDiffList(opts, n.records ?? [], v.kind === 'struct' ? 'field' : v.kind === 'map' ? 'entry' : 'element'));
}

const CONTEXT = 2;
const MAX_PRESET = 6;

function formatDiffList(o: Opts, recs: readonly Rec[], name: 'field' | 'element' | 'entry'): TextNode {
  let opts: Opts = { ...o, typeMode: name === 'field' ? 'auto' : 'elide' };
  let maxLen = -1;
  if (opts.limit) {
    maxLen = opts.diffMode === ' ' ? ((1 << verbosityOf(opts)) >> 1) << 2 : (1 << verbosityOf(opts)) << 1;
    opts = { ...opts, verbosity: opts.verbosity - 1 };
  }
  if (opts.diffMode !== '') {
    const list: TextRecord[] = [];
    let deferred = false;
    for (const r of recs) {
      if (list.length === maxLen) { deferred = true; break; }
      if (name === 'field') {
        const zero = opts.diffMode === ' ' ? (r.node.x !== undefined && isZero(r.node.x)) || (r.node.y !== undefined && isZero(r.node.y))
          : opts.diffMode === '-' ? r.node.x !== undefined && isZero(r.node.x) : r.node.y !== undefined && isZero(r.node.y);
        if (zero) continue;
      }
      const out = formatDiff(opts, r.node);
      if (out !== undefined) list.push({ diff: '', key: r.key, value: out });
    }
    if (deferred) appendEllipsis(list);
    return new Wrap('{', new List(list), '}');
  }

  // Group adjacent equal and unequal records.
  const groups: Stats[] = [];
  let prev = 0;
  for (const r of recs) {
    const kind = r.node.numDiff === 0 ? 1 : 2;
    if (kind !== prev) { groups.push({ name, identical: 0, removed: 0, inserted: 0, modified: 0 }); prev = kind; }
    const g = groups[groups.length - 1] as Stats;
    if (r.node.numDiff === 0) g.identical++;
    else if (r.node.y === undefined) g.removed++;
    else if (r.node.x === undefined) g.inserted++;
    else g.modified++;
  }
  const list: TextRecord[] = [];
  let rest = [...recs];
  let numDiffs = 0;
  let dropped: Stats | undefined;
  groups.forEach((g, i) => {
    const nDiff = g.removed + g.inserted + g.modified;
    if (maxLen >= 0 && numDiffs >= maxLen) {
      dropped = dropped === undefined ? { ...g } : { ...dropped, identical: dropped.identical + g.identical, removed: dropped.removed + g.removed,
        inserted: dropped.inserted + g.inserted, modified: dropped.modified + g.modified };
      rest = rest.slice(g.identical + nDiff);
      return;
    }
    if (nDiff === 0) {
      const numEqual = g.identical;
      let lo = 0;
      let hi = 0;
      while (lo < CONTEXT && lo + hi < numEqual && i !== 0) lo++;
      while (hi < CONTEXT && lo + hi < numEqual && i !== groups.length - 1) hi++;
      if (numEqual - (lo + hi) === 1) hi++;
      const same = opts.diffMode === '' ? { ...opts, diffMode: ' ' as const } : opts;
      for (const r of rest.slice(0, lo)) list.push({ diff: '', key: r.key, value: formatDiff(same, r.node) ?? NIL });
      if (numEqual > lo + hi) appendEllipsis(list, { ...g, identical: g.identical - (lo + hi) });
      for (const r of rest.slice(numEqual - hi, numEqual)) list.push({ diff: '', key: r.key, value: formatDiff(same, r.node) ?? NIL });
      rest = rest.slice(numEqual);
      return;
    }
    for (const r of rest.slice(0, nDiff)) {
      if (r.node.numChildren === r.node.maxDepth) {
        let outx = formatDiff({ ...opts, diffMode: '-' }, r.node);
        let outy = formatDiff({ ...opts, diffMode: '+' }, r.node);
        for (let p = 0; p <= MAX_PRESET && outx !== undefined && outy !== undefined && nodeEqual(outx, outy); p++) {
          const o2: Opts = { ...opts, verbosity: verbosityOf(opts) + 2 * p, avoidStringer: p > 0 ? true : opts.avoidStringer };
          outx = formatDiff({ ...o2, diffMode: '-' }, r.node);
          outy = formatDiff({ ...o2, diffMode: '+' }, r.node);
        }
        if (outx !== undefined) list.push({ diff: '-', key: r.key, value: outx });
        if (outy !== undefined) list.push({ diff: '+', key: r.key, value: outy });
      } else {
        list.push({ diff: '', key: r.key, value: formatDiff(opts, r.node) ?? NIL });
      }
    }
    rest = rest.slice(nDiff);
    numDiffs += nDiff;
  });
  if (dropped !== undefined) appendEllipsis(list, dropped);
  return new Wrap('{', new List(list), '}');
}

/** cmp.Diff(x, y): '' when equal, else the report (ending in a newline). */
export function cmpDiff(x: GoValue, y: GoValue): string {
  const root = compare(x, y);
  if (root.numDiff === 0) return '';
  const out = formatDiff({ diffMode: '', typeMode: 'emit', verbosity: 0, limit: false, avoidStringer: false }, root) ?? NIL;
  const { node } = compact(out, '');
  return `${indent(0, '')}${expand(node, '', 0)}\n`;
}
