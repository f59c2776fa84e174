// A unified diff of two values' indented JSON, the shape of apimachinery's util/diff.Diff
// (go-difflib's SequenceMatcher, 3 lines of context, no file headers). Used in "may not change" messages.
// Counterpart of k8s.io/apimachinery/pkg/util/diff (Diff) and github.com/pmezard/go-difflib/difflib.

/** An opcode of difflib's SequenceMatcher: a[i1:i2] is equal to, replaced by, deleted from or inserted as b[j1:j2]. */
interface OpCode { tag: 'e' | 'r' | 'd' | 'i'; i1: number; i2: number; j1: number; j2: number }
type Block = readonly [i: number, j: number, size: number];

/**
 * The most cells findLongestMatch may visit. Beyond it (a hostile update of a huge spec), the
 * common head and tail are matched and the middle is reported as replaced: still a correct diff,
 * in linear time and space.
 */
const MAX_MATCH_CELLS = 4_000_000;

/**
 * difflib's SequenceMatcher (go-difflib, as kube's util/diff uses it): the longest matching block,
 * then the same on each side, recursively. b's lines that occur in more than 1% of a long b
 * (200 lines or more) are "popular" and never start a match (autojunk), as in difflib.
 */
function matchingBlocks(a: readonly string[], b: readonly string[]): Block[] {
  const b2j = new Map<string, number[]>();
  b.forEach((line, j) => { const js = b2j.get(line); if (js === undefined) b2j.set(line, [j]); else js.push(j); });
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [line, js] of b2j) if (js.length > ntest) b2j.delete(line);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): Block => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i] ?? '') ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
      }
      j2len = next;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++; }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  };
  const blocks: Block[] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() ?? [0, 0, 0, 0];
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    blocks.push([i, j, k]);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  // adjacent blocks collapse into one
  const merged: Block[] = [];
  for (const blk of blocks) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last[0] + last[2] === blk[0] && last[1] + last[2] === blk[1]) merged[merged.length - 1] = [last[0], last[1], last[2] + blk[2]];
    else merged.push(blk);
  }
  merged.push([a.length, b.length, 0]);
  return merged;
}

/** The blocks of a huge pair: the common head and tail only. */
function headTailBlocks(a: readonly string[], b: readonly string[]): Block[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const blocks: Block[] = [];
  if (head > 0) blocks.push([0, 0, head]);
  if (tail > 0) blocks.push([a.length - tail, b.length - tail, tail]);
  blocks.push([a.length, b.length, 0]);
  return blocks;
}

function opCodes(a: readonly string[], b: readonly string[]): OpCode[] {
  const blocks = a.length * b.length <= MAX_MATCH_CELLS ? matchingBlocks(a, b) : headTailBlocks(a, b);
  const codes: OpCode[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj, size] of blocks) {
    const tag = i < ai && j < bj ? 'r' : i < ai ? 'd' : j < bj ? 'i' : undefined;
    if (tag !== undefined) codes.push({ tag, i1: i, i2: ai, j1: j, j2: bj });
    i = ai + size;
    j = bj + size;
    if (size > 0) codes.push({ tag: 'e', i1: ai, i2: i, j1: bj, j2: j });
  }
  return codes;
}

/** GetGroupedOpCodes: the changes with n lines of context, split where equal runs are longer than 2n. */
function groupedOpCodes(codes: OpCode[], n: number): OpCode[][] {
  if (codes.length === 0) codes = [{ tag: 'e', i1: 0, i2: 1, j1: 0, j2: 1 }];
  const first = codes[0];
  if (first !== undefined && first.tag === 'e') codes[0] = { ...first, i1: Math.max(first.i1, first.i2 - n), j1: Math.max(first.j1, first.j2 - n) };
  const last = codes[codes.length - 1];
  if (last !== undefined && last.tag === 'e') codes[codes.length - 1] = { ...last, i2: Math.min(last.i2, last.i1 + n), j2: Math.min(last.j2, last.j1 + n) };
  const groups: OpCode[][] = [];
  let group: OpCode[] = [];
  for (const c of codes) {
    let { i1, j1 } = c;
    if (c.tag === 'e' && c.i2 - i1 > 2 * n) {
      group.push({ tag: 'e', i1, i2: Math.min(c.i2, i1 + n), j1, j2: Math.min(c.j2, j1 + n) });
      groups.push(group);
      group = [];
      i1 = Math.max(i1, c.i2 - n);
      j1 = Math.max(j1, c.j2 - n);
    }
    group.push({ ...c, i1, j1 });
  }
  if (group.length > 0 && !(group.length === 1 && group[0]?.tag === 'e')) groups.push(group);
  return groups;
}

function range(start: number, stop: number): string {
  let beginning = start + 1;
  const length = stop - start;
  if (length === 1) return `${beginning}`;
  if (length === 0) beginning--;
  return `${beginning},${length}`;
}

/** go-difflib's unified diff of two texts' lines (no file headers), `context` lines around changes. */
export function unifiedDiff(a: string, b: string, context = 3): string {
  const al = a.split('\n');
  const bl = b.split('\n');
  let out = '';
  for (const g of groupedOpCodes(opCodes(al, bl), context)) {
    const first = g[0];
    const last = g[g.length - 1];
    if (first === undefined || last === undefined) continue;
    out += `@@ -${range(first.i1, last.i2)} +${range(first.j1, last.j2)} @@\n`;
    for (const c of g) {
      if (c.tag === 'e') for (const line of al.slice(c.i1, c.i2)) out += ` ${line}\n`;
      if (c.tag === 'r' || c.tag === 'd') for (const line of al.slice(c.i1, c.i2)) out += `-${line}\n`;
      if (c.tag === 'r' || c.tag === 'i') for (const line of bl.slice(c.j1, c.j2)) out += `+${line}\n`;
    }
  }
  return out;
}

/** diff.Diff(a, b): JSON indented with one space, then a unified diff. */
export function objectDiff(a: unknown, b: unknown): string {
  return unifiedDiff(JSON.stringify(a, null, 1) ?? 'null', JSON.stringify(b, null, 1) ?? 'null');
}
