// kube-aware version ordering (version.CompareKubeAwareVersionStrings): GA before beta before
// alpha, higher numbers first; versions that are not kube-like come last, alphabetically.
const KUBE = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(v: string): [number, number, number] | undefined {
  const m = KUBE.exec(v);
  if (m === null) return undefined;
  const stage = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
  return [stage, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
}

/** Negative when a comes first. */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra === undefined && rb === undefined) return a < b ? -1 : a > b ? 1 : 0;
  if (ra === undefined) return 1;
  if (rb === undefined) return -1;
  if (ra[0] !== rb[0]) return rb[0] - ra[0];
  if (ra[1] !== rb[1]) return rb[1] - ra[1];
  return rb[2] - ra[2];
}
