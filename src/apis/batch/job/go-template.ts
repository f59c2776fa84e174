// A pod template as kube prints it as the bad value of a Job's "field is immutable" error: the
// internal core.PodTemplateSpec through encoding/json (compact), its ObjectMeta inlined with its
// JSON tags, the rest under Go names (printed by core/go-types/go-json.ts).
import { goCompactJSON } from '../../core/go-types/go-json.ts';
import { internalPodSpec } from '../../core/pod/go-pod-spec.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodTemplateSpec } from '../../core/v1/types.ts';

/** The internal PodTemplateSpec of a v1 template, as encoding/json writes it. */
export function goPodTemplateSpec(t: DeepReadonly<PodTemplateSpec> | undefined): string {
  return goCompactJSON({ metadata: t?.metadata ?? {}, spec: internalPodSpec(t?.spec) }, 'PodTemplateSpec');
}

/** The internal PodSpec alone (the value of the spec.template.spec error of a suspended job). */
export function goPodSpec(spec: DeepReadonly<PodTemplateSpec['spec']> | undefined): string {
  return goCompactJSON(internalPodSpec(spec), 'PodSpec');
}
