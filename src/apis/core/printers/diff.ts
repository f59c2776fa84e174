// A unified diff of two values' indented JSON, the shape of apimachinery's util/diff.Diff
// (go-difflib, 3 lines of context, no file headers). Used in "may not change" messages.

type Op = { tag: 'equal' | 'delete' | 'insert'; a: number; b: number };

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i] ?? [];
    const next = lcs[i + 1] ?? [];
    for (let j = m - 1; j >= 0; j--) row[j] = a[i] === b[j] ? (next[j + 1] ?? 0) + 1 : Math.max(next[j] ?? 0, row[j + 1] ?? 0);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ tag: 'equal', a: i++, b: j++ });
    else if (i < n && (j >= m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) ops.push({ tag: 'delete', a: i++, b: j });
    else ops.push({ tag: 'insert', a: i, b: j++ });
  }
  return ops;
}

function range(start: number, length: number): string {
  const beginning = length === 0 ? start : start + 1;
  return length === 1 ? `${beginning}` : `${beginning},${length}`;
}

export function unifiedDiff(a: string, b: string, context = 3): string {
  const al = a.split('\n');
  const bl = b.split('\n');
  const ops = lineOps(al, bl);
  const changed = ops.map((o, k) => (o.tag !== 'equal' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  // group changes whose context windows overlap
  const groups: [number, number][] = [];
  for (const k of changed) {
    const last = groups[groups.length - 1];
    if (last !== undefined && k - last[1] <= 2 * context) last[1] = k;
    else groups.push([k, k]);
  }
  let out = '';
  for (const [first, last] of groups) {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    const slice = ops.slice(from, to + 1);
    const aStart = slice[0]?.a ?? 0;
    const bStart = slice[0]?.b ?? 0;
    const aLen = slice.filter((o) => o.tag !== 'insert').length;
    const bLen = slice.filter((o) => o.tag !== 'delete').length;
    out += `@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@\n`;
    for (const o of slice) {
      if (o.tag === 'equal') out += ` ${al[o.a] ?? ''}\n`;
      else if (o.tag === 'delete') out += `-${al[o.a] ?? ''}\n`;
      else out += `+${bl[o.b] ?? ''}\n`;
    }
  }
  return out;
}

/** diff.Diff(a, b): JSON indented with one space, then a unified diff. */
export function objectDiff(a: unknown, b: unknown): string {
  return unifiedDiff(JSON.stringify(a, null, 1) ?? 'null', JSON.stringify(b, null, 1) ?? 'null');
}
