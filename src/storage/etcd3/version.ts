// Which etcd versions answer a watch progress request correctly (only once the watch has caught
// up, in order with its events): 3.4.31+, 3.5.13+ and 3.6+, the versions kube-apiserver's
// feature check accepts for RequestWatchProgress.
// Counterpart of k8s.io/apiserver/pkg/storage/feature (the etcd versions RequestWatchProgress
// needs).
const FIXED: readonly (readonly [number, number, number])[] = [[3, 4, 31], [3, 5, 13], [3, 6, 0]];

export function supportsWatchProgress(version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (m === null) return false;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (major > 3 || (major === 3 && minor > 6)) return true;
  return FIXED.some(([a, b, c]) => major === a && minor === b && patch >= c);
}
