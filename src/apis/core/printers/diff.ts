// A unified diff of two values' indented JSON, the shape of apimachinery's util/diff.Diff
// (go-difflib, 3 lines of context, no file headers). Used in "may not change" messages.
// Counterpart of k8s.io/apimachinery/pkg/util/diff and github.com/pmezard/go-difflib.

type Op = { tag: 'equal' | 'delete' | 'insert'; a: number; b: number };

/**
 * The most cells the exact LCS table may have. Beyond it (a hostile update of a huge spec), the
 * common head and tail are matched and the middle is compared only if it fits, else reported as
 * removed and inserted: still a correct diff, in linear time and space.
 */
const MAX_LCS_CELLS = 4_000_000;

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length <= MAX_LCS_CELLS) return lcsOps(a, b, 0, 0);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [];
  for (let k = 0; k < head; k++) ops.push({ tag: 'equal', a: k, b: k });
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  if (am.length * bm.length <= MAX_LCS_CELLS) ops.push(...lcsOps(am, bm, head, head));
  else {
    for (let k = 0; k < am.length; k++) ops.push({ tag: 'delete', a: head + k, b: head });
    for (let k = 0; k < bm.length; k++) ops.push({ tag: 'insert', a: head + am.length, b: head + k });
  }
  for (let k = 0; k < tail; k++) ops.push({ tag: 'equal', a: a.length - tail + k, b: b.length - tail + k });
  return ops;
}

/** The exact diff (longest common subsequence) of a and b, whose lines start at aOff and bOff. */
function lcsOps(a: readonly string[], b: readonly string[], aOff: number, bOff: number): Op[] {
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
    if (i < n && j < m && a[i] === b[j]) ops.push({ tag: 'equal', a: aOff + i++, b: bOff + j++ });
    else if (i < n && (j >= m || (lcs[i + 1]?.[j] ?? 0) >= (lcs[i]?.[j + 1] ?? 0))) ops.push({ tag: 'delete', a: aOff + i++, b: bOff + j });
    else ops.push({ tag: 'insert', a: aOff + i, b: bOff + j++ });
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
