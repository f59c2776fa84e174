// /version: kubectl reads it for version skew (and the kubectl dispatcher picks its binary by minor).
// Counterpart of k8s.io/apiserver/pkg/server/routes/version.go.
const KUBERNETES_VERSION = { major: '1', minor: '36', patch: '0' };

export function versionInfo(): object {
  return {
    major: KUBERNETES_VERSION.major,
    minor: KUBERNETES_VERSION.minor,
    emulationMajor: KUBERNETES_VERSION.major,
    emulationMinor: KUBERNETES_VERSION.minor,
    minCompatibilityMajor: KUBERNETES_VERSION.major,
    minCompatibilityMinor: String(Number(KUBERNETES_VERSION.minor) - 1),
    gitVersion: `v${KUBERNETES_VERSION.major}.${KUBERNETES_VERSION.minor}.${KUBERNETES_VERSION.patch}`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'kapi',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
