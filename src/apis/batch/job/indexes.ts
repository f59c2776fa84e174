// The completed and failed index lists of Indexed Jobs (validateIndexesFormat and
// validateFailedIndexesNotOverlapCompleted of kube's pkg/apis/batch/validation): comma-separated
// intervals `x` or `x-y`, increasing, below spec.completions.

/** parseIndexInterval: `x` or `x-y` with x < y < completions (strconv.Atoi accepts a sign). */
function parseInterval(s: string, completions: number): [number, number] | string {
  const parts = s.split('-');
  if (parts.length > 2) return `the fragment "${s}" violates the requirement that an index interval can have at most two parts separated by '-'`;
  const limits: number[] = [];
  for (const part of parts) {
    if (!/^[+-]?\d+$/.test(part)) return `cannot convert string to integer for index: ${JSON.stringify(part)}`;
    const n = Number.parseInt(part, 10);
    if (n >= completions) return `too large index: ${JSON.stringify(part)}`;
    limits.push(n);
  }
  const [x = 0, y = x] = limits;
  if (parts.length > 1 && x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

/** validateIndexesFormat: increasing, comma-separated intervals; the first problem found. */
export function indexesFormatError(indexes: string, completions: number): string | undefined {
  if (indexes === '') return undefined;
  let last: number | undefined;
  for (const s of indexes.split(',')) {
    const r = parseInterval(s, completions);
    if (typeof r === 'string') return r;
    if (last !== undefined && last >= r[0]) return `non-increasing order, previous: ${last}, current: ${r[0]}`;
    last = r[1];
  }
  return undefined;
}

/** How many indexes a well-formed interval list names (validateIndexesFormat's total). */
export function countIndexes(indexes: string, completions: number): number {
  if (indexes === '') return 0;
  return indexes.split(',').reduce((n, s) => {
    const r = parseInterval(s, completions);
    return typeof r === 'string' ? n : n + r[1] - r[0] + 1;
  }, 0);
}

/** validateFailedIndexesNotOverlapCompleted: walks both interval lists, skipping unparsable ones. */
export function indexesOverlap(completed: string, failed: string, completions: number): number | undefined {
  if (completed === '' || failed === '') return undefined;
  const c = completed.split(',').map((s) => parseInterval(s, completions));
  const f = failed.split(',').map((s) => parseInterval(s, completions));
  let ci = 0;
  let fi = 0;
  while (ci < c.length && fi < f.length) {
    const a = c[ci];
    const b = f[fi];
    if (typeof a === 'string' || a === undefined) { ci++; continue; }
    if (typeof b === 'string' || b === undefined) { fi++; continue; }
    if (a[0] <= b[1] && b[0] <= a[1]) return Math.max(a[0], b[0]);
    if (a[0] <= b[0]) ci++; else fi++;
  }
  return undefined;
}
