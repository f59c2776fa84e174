// Fields of a pod spec whose feature gates are off by default in kube v1.36 (dropDisabledFields in
// pkg/api/pod/util.go): the strategy clears them on create, and on update unless the old spec already
// used them, so a stored object keeps working after the gate is switched off. Pods and every
// workload's pod template (DropDisabledPodFields / DropDisabledTemplateFields) share the rules.
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Container, PodSpec, PodTemplateSpec } from '../v1/types.ts';

// ClusterTrustBundleProjection and PodCertificateRequest (beta, both off by default) gate these sources.
const GATED_PROJECTION_SOURCES = ['clusterTrustBundle', 'podCertificate'] as const;

type Spec = DeepReadonly<PodSpec> | undefined;

function projectionInUse(spec: Spec, key: string): boolean {
  return (spec?.volumes ?? []).some((v) => (v.projected?.sources ?? []).some((s) => s[key] !== undefined));
}

const allContainers = <C>(spec: { readonly containers?: readonly C[]; readonly initContainers?: readonly C[]; readonly ephemeralContainers?: readonly C[] } | undefined): C[] =>
  [...(spec?.containers ?? []), ...(spec?.initContainers ?? []), ...(spec?.ephemeralContainers ?? [])];

/** ContainerStopSignals (alpha, off): lifecycle.stopSignal, and the lifecycle it leaves empty. */
function dropStopSignals(spec: PodSpec, old: Spec): void {
  if (allContainers(old).some((c) => c.lifecycle?.['stopSignal'] !== undefined)) return;
  for (const c of allContainers<Container>(spec)) {
    if (c.lifecycle === undefined || c.lifecycle === null || !('stopSignal' in c.lifecycle)) continue;
    delete c.lifecycle['stopSignal'];
    if (Object.keys(c.lifecycle).length === 0) delete c.lifecycle;
  }
}

/** Drops the gated fields of spec (gated projected volume sources are left as empty sources, as kube does). */
export function dropDisabledPodSpecFields(spec: PodSpec | undefined, old: Spec): void {
  if (spec === undefined || spec === null) return;
  for (const key of GATED_PROJECTION_SOURCES) {
    if (projectionInUse(old, key)) continue;
    for (const v of spec.volumes ?? []) for (const s of v.projected?.sources ?? []) delete s[key];
  }
  // GenericWorkload (alpha, off) gates spec.schedulingGroup
  const loose = spec as PodSpec & { schedulingGroup?: unknown };
  if ((old as { schedulingGroup?: unknown } | undefined)?.schedulingGroup === undefined) delete loose.schedulingGroup;
  dropStopSignals(spec, old);
}

/** DropDisabledTemplateFields: the same for the pod template of a workload (any of them may be absent). */
export function dropDisabledTemplateFields(template: PodTemplateSpec | undefined, old: DeepReadonly<PodTemplateSpec> | undefined): void {
  dropDisabledPodSpecFields(template?.spec, old?.spec);
}
