// Toleration sets as the scheduling admission plugins combine them: a toleration is redundant when
// another one tolerates everything it does (isSuperset); merging keeps the first of equals and
// drops the redundant ones; a whitelist admits tolerations each covered by one of its entries.
// Counterpart of pkg/util/tolerations.
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

const same = (a: Toleration, b: Toleration): boolean =>
  (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') &&
  (a.effect ?? '') === (b.effect ?? '') && a.tolerationSeconds === b.tolerationSeconds;

/** Whether ss tolerates every taint t tolerates. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (same(ss, t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && ss.tolerationSeconds !== undefined &&
      (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds)) return false;
  switch (ss.operator ?? '') {
    case 'Equal': case '': return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists': return true;
    default: return false;
  }
}

/** MergeTolerations: first then second, without the tolerations another one makes redundant. */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    if (all.slice(i + 1).some((t2) => !same(t, t2) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged;
}

/** VerifyAgainstWhitelist: every toleration is covered by a whitelist entry (an empty whitelist allows all). */
export function verifyAgainstWhitelist(tolerations: readonly Toleration[], whitelist: readonly Toleration[]): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}
