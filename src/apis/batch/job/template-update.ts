// What an update may change in a Job's pod template (validatePodTemplateUpdate of
// pkg/apis/batch/validation): nothing, except for a suspended job that has not run (or was
// suspended again, with no active pods): its scheduling directives, template labels and
// annotations, and (MutablePodResourcesForSuspendedJobs, on in v1.36) its containers' resources.
import { GoSyntax, invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, FIELD_IMMUTABLE_ERROR_MSG } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { JobSpec } from '../v1/types.ts';
import { goPodSpec, goPodTemplateSpec } from './go-template.ts';
import type { JobValidationOptions } from './options.ts';

type RO<T> = DeepReadonly<T>;

/** The template with the fields a suspended, never started job may change copied from the new one. */
function comparableOldTemplate(spec: RO<JobSpec>, old: RO<JobSpec>, opts: JobValidationOptions): unknown {
  if (!opts.allowMutableSchedulingDirectives) return old.template;
  const t = structuredClone(old.template) as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
  const next = spec.template as { metadata?: Record<string, unknown>; spec?: Record<string, unknown> } | undefined;
  t.metadata ??= {};
  t.spec ??= {};
  const nextAff = next?.spec?.['affinity'] as Record<string, unknown> | undefined;
  const oldAff = t.spec['affinity'] as Record<string, unknown> | undefined;
  if (nextAff === undefined && oldAff !== undefined) {
    delete oldAff['nodeAffinity'];
    if (Object.keys(oldAff).length === 0) delete t.spec['affinity'];
  } else if (nextAff !== undefined && oldAff === undefined) {
    t.spec['affinity'] = nextAff['nodeAffinity'] === undefined ? {} : { nodeAffinity: nextAff['nodeAffinity'] };
  } else if (nextAff !== undefined && oldAff !== undefined) {
    if (nextAff['nodeAffinity'] === undefined) delete oldAff['nodeAffinity'];
    else oldAff['nodeAffinity'] = nextAff['nodeAffinity'];
  }
  for (const k of ['nodeSelector', 'tolerations', 'schedulingGates']) {
    if (next?.spec?.[k] === undefined) delete t.spec[k];
    else t.spec[k] = next.spec[k];
  }
  for (const k of ['labels', 'annotations']) {
    if (next?.metadata?.[k] === undefined) delete t.metadata[k];
    else t.metadata[k] = next.metadata[k];
  }
  if (next?.metadata === undefined && Object.keys(t.metadata).length === 0) delete t.metadata;
  return t;
}

type Containers = { name?: string; resources?: unknown }[];

/** validatePodResourceUpdatesOnly: the old spec with each same-named container's resources taken from the new one. */
function withNewResources(next: Readonly<Record<string, unknown>> | undefined, old: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(old);
  for (const k of ['containers', 'initContainers']) {
    const n = (next?.[k] ?? []) as Containers;
    const o = (out[k] ?? []) as Containers;
    if (n.length !== o.length) continue;
    o.forEach((c, i) => {
      const nc = n[i];
      if (nc === undefined || c.name !== nc.name) return;
      if (nc.resources === undefined) delete c.resources;
      else c.resources = structuredClone(nc.resources);
    });
  }
  return out;
}

export function validateJobTemplateUpdate(spec: RO<JobSpec>, old: RO<JobSpec>, opts: JobValidationOptions, p: FieldPath): FieldError[] {
  const oldTemplate = comparableOldTemplate(spec, old, opts) as { spec?: Record<string, unknown> } | undefined;
  if (old.suspend === true && opts.allowMutablePodResources) {
    const next = spec.template?.spec as Readonly<Record<string, unknown>> | undefined;
    if (deepEqual(next ?? {}, withNewResources(next, oldTemplate?.spec ?? {}))) return [];
    return [invalid(p.child('template.spec'), new GoSyntax(goPodSpec(spec.template?.spec)), FIELD_IMMUTABLE_ERROR_MSG)];
  }
  if (deepEqual(spec.template, oldTemplate)) return [];
  return [invalid(p.child('template'), new GoSyntax(goPodTemplateSpec(spec.template)), FIELD_IMMUTABLE_ERROR_MSG)];
}
