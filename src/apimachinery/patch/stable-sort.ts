// Go's sort.SliceStable, step for step: insertion sort of blocks of 20, then rounds of in-place
// symmetric merges (SymMerge, Kim & Kutzner) of doubling blocks. Strategic merge patch sorts
// with a comparator that is not a strict order (an item missing from the order list is "less"
// than anything), so the result depends on the algorithm, not only on the comparator: matching
// Go's algorithm keeps kube's order, and costs O(n log² n) instead of insertion sort's O(n²).

/** Sorts a in place; less(x, y) is the comparator applied to the values. */
export function goSliceStable<T>(a: T[], less: (x: T, y: T) => boolean): void {
  const n = a.length;
  const lessAt = (i: number, j: number): boolean => less(a[i] as T, a[j] as T);
  const swap = (i: number, j: number): void => {
    const t = a[i] as T;
    a[i] = a[j] as T;
    a[j] = t;
  };
  const insertion = (lo: number, hi: number): void => {
    for (let i = lo + 1; i < hi; i++) for (let j = i; j > lo && lessAt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (x: number, y: number, count: number): void => {
    for (let k = 0; k < count; k++) swap(x + k, y + k);
  };
  // Exchanges the blocks [lo, mid) and [mid, hi) by block swaps.
  const rotate = (lo: number, mid: number, hi: number): void => {
    let i = mid - lo;
    let j = hi - mid;
    while (i !== j) {
      if (i > j) { swapRange(mid - i, mid, j); i -= j; } else { swapRange(mid - i, mid + j - i, i); j -= i; }
    }
    swapRange(mid - i, mid, i);
  };
  const symMerge = (lo: number, mid: number, hi: number): void => {
    if (mid - lo === 1) {
      // One element on the left: binary search its place on the right, then shift it there.
      let i = mid;
      let j = hi;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, lo)) i = h + 1; else j = h;
      }
      for (let k = lo; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (hi - mid === 1) {
      let i = lo;
      let j = mid;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(mid, h)) i = h + 1; else j = h;
      }
      for (let k = mid; k > i; k--) swap(k, k - 1);
      return;
    }
    const half = (lo + hi) >>> 1;
    const n2 = half + mid;
    let start: number;
    let r: number;
    if (mid > half) { start = n2 - hi; r = half; } else { start = lo; r = mid; }
    const p = n2 - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1; else r = c;
    }
    const end = n2 - start;
    if (start < mid && mid < end) rotate(start, mid, end);
    if (lo < start && start < half) symMerge(lo, start, half);
    if (half < end && end < hi) symMerge(half, end, hi);
  };

  let block = 20;
  let lo = 0;
  let hi = block;
  for (; hi <= n; lo = hi, hi += block) insertion(lo, hi);
  insertion(lo, n);
  for (; block < n; block *= 2) {
    lo = 0;
    hi = 2 * block;
    for (; hi <= n; lo = hi, hi += 2 * block) symMerge(lo, lo + block, hi);
    if (lo + block < n) symMerge(lo, lo + block, n);
  }
}
