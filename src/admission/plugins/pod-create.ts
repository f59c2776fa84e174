// What the pod admission plugins share: they act on the spec of a pod being created.
// Counterpart of the pod checks the plugins of plugin/pkg/admission repeat.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Attributes } from '../interfaces.ts';

/** The spec of the pod a CREATE of core/v1 pods carries (created empty when missing); undefined otherwise. */
export function createdPodSpec<S extends object>(a: Attributes): { pod: KubeObject & { spec?: S }; spec: S } | undefined {
  if (a.operation !== 'CREATE' || a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '' ||
      a.object === undefined) return undefined;
  const pod = a.object as KubeObject & { spec?: S };
  const spec = pod.spec ?? ({} as S);
  pod.spec = spec;
  return { pod, spec };
}
