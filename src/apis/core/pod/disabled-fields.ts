// Fields of a pod spec whose feature gates are off by default in kube v1.36 (dropDisabledPodFields in
// pkg/api/pod/util.go): the strategy clears them on create, and on update unless the old spec already
// used them, so a stored object keeps working after the gate is switched off.
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodSpec } from '../v1/types.ts';

// ClusterTrustBundleProjection and PodCertificateRequest (beta, both off by default) gate these sources.
const GATED_PROJECTION_SOURCES = ['clusterTrustBundle', 'podCertificate'] as const;

function projectionInUse(spec: DeepReadonly<PodSpec> | undefined, key: string): boolean {
  return (spec?.volumes ?? []).some((v) => (v.projected?.sources ?? []).some((s) => s[key] !== undefined));
}

/** Drops the gated projected volume sources of spec (left as empty sources, which validation then rejects). */
export function dropDisabledPodSpecFields(spec: PodSpec | undefined, old: DeepReadonly<PodSpec> | undefined): void {
  for (const key of GATED_PROJECTION_SOURCES) {
    if (projectionInUse(old, key)) continue;
    for (const v of spec?.volumes ?? []) for (const s of v.projected?.sources ?? []) delete s[key];
  }
}
