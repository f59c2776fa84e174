// Where each workload resource keeps its pod template: the resources PodSecurity checks besides
// pods (for audit and warn only).
// Counterpart of DefaultPodSpecExtractor in k8s.io/pod-security-admission/admission/admission.go.
import type { PodSpec, PodTemplateSpec } from '../../../generated/types/corev1.gen.ts';
import type { PodMeta } from './policy/check.ts';

type Obj = { readonly [k: string]: unknown };
const field = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (v != null && typeof v === 'object' ? (v as Obj)[k] : undefined), o);

/** The path to the pod template of each workload resource, by group/resource. */
const TEMPLATE_PATHS: Readonly<Record<string, readonly string[]>> = {
  '/podtemplates': ['template'],
  '/replicationcontrollers': ['spec', 'template'],
  'apps/replicasets': ['spec', 'template'],
  'apps/deployments': ['spec', 'template'],
  'apps/statefulsets': ['spec', 'template'],
  'apps/daemonsets': ['spec', 'template'],
  'batch/jobs': ['spec', 'template'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template'],
};

/** Whether PodSecurity looks at the resource at all. */
export const hasPodSpec = (group: string, resource: string): boolean =>
  (group === '' && (resource === 'pods' || resource === 'namespaces')) || Object.hasOwn(TEMPLATE_PATHS, `${group}/${resource}`);

/**
 * The template of a workload object; undefined when the resource has an optional template that
 * is absent (a ReplicationController without one). Other resources' templates are values in kube,
 * so a missing one is checked as empty.
 */
export function extractPodTemplate(group: string, resource: string, obj: unknown): { metadata: PodMeta; spec: PodSpec } | undefined {
  const path = TEMPLATE_PATHS[`${group}/${resource}`];
  if (path === undefined) return undefined;
  const t = field(obj, ...path) as PodTemplateSpec | undefined | null;
  if (t == null) return resource === 'replicationcontrollers' ? undefined : { metadata: {}, spec: { containers: [] } };
  return { metadata: t.metadata ?? {}, spec: t.spec ?? { containers: [] } };
}
