// The internal core.PodSpec as json.MarshalIndent(spec, "", " ") writes it: kube's pod update
// message ends with a unified diff of that text (util/diff.Diff of the old and the munged spec).
// The printing itself is go-types/go-json.ts, shared with the PV, PVC and Job messages.
// Counterpart of encoding/json printing pkg/apis/core's PodSpec (k8s.io/kubernetes pkg/apis/core/types.go).
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { goDiff, goIndentedJSON } from '../go-types/go-json.ts';
import type { PodSpec } from '../v1/types.ts';

type Json = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * v1 keeps the host namespace switches in the PodSpec; the internal type in its security context,
 * which the conversion therefore always allocates.
 */
export function internalPodSpec(spec: unknown): Json {
  const s: Json = isObj(spec) ? spec : {};
  const sc: Record<string, unknown> = { ...(isObj(s['securityContext']) ? s['securityContext'] : {}) };
  for (const k of ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers']) if (s[k] !== undefined) sc[k] = s[k];
  return { ...s, securityContext: sc };
}

/** The internal PodSpec of a v1 spec, as kube's diff prints it. */
export function goPodSpecText(spec: DeepReadonly<PodSpec>): string {
  return goIndentedJSON(internalPodSpec(spec), 'PodSpec');
}

/** util/diff.Diff(old, new) of two pod specs. */
export function podSpecDiff(prev: DeepReadonly<PodSpec>, next: DeepReadonly<PodSpec>): string {
  return goDiff(internalPodSpec(prev), internalPodSpec(next), 'PodSpec');
}

/** util/diff.Diff(old, new) of two ephemeral containers (the internal EphemeralContainer). */
export function ephemeralContainerDiff(prev: unknown, next: unknown): string {
  return goDiff(prev, next, 'EphemeralContainer');
}
