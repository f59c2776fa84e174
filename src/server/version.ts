// /version: kubectl reads it for version skew (and the kubectl dispatcher picks its binary by minor).
// The same facts label kubernetes_build_info and version_info in /metrics.
// Counterpart of k8s.io/apiserver/pkg/server/routes/version.go and
// k8s.io/component-base/metrics/prometheus/version (and compatversion's version_info).
import { newGauge } from '../apimachinery/metrics/registry.ts';

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

newGauge({
  name: 'kubernetes_build_info', stability: 'BETA',
  help: "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
  labelNames: ['build_date', 'compiler', 'git_commit', 'git_tree_state', 'git_version', 'go_version', 'major', 'minor', 'platform'],
  collect() {
    const v = versionInfo() as Record<string, string>;
    this.set({ build_date: v['buildDate'] ?? '', compiler: v['compiler'] ?? '', git_commit: v['gitCommit'] ?? '', git_tree_state: v['gitTreeState'] ?? '',
      git_version: v['gitVersion'] ?? '', go_version: v['goVersion'] ?? '', major: v['major'] ?? '', minor: v['minor'] ?? '', platform: v['platform'] ?? '' }, 1);
  },
});

newGauge({
  name: 'version_info', stability: 'ALPHA',
  help: 'Provides the compatibility version info of the component. The component label is the name of the component, usually kube, but is relevant for aggregated-apiservers.',
  labelNames: ['binary', 'component', 'emulation', 'min_compat'],
  collect() {
    const { major, minor, patch } = KUBERNETES_VERSION;
    this.set({ binary: `${major}.${minor}.${patch}`, component: 'kube', emulation: `${major}.${minor}`, min_compat: `${major}.${Number(minor) - 1}` }, 1);
  },
});
