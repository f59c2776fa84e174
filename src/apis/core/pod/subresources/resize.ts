// pods/resize (podResizeStrategy, ValidatePodResize of v1.36): only the resources and resizePolicy
// of containers, init containers and the pod itself are taken from the request; cpu and memory
// may change, requests and limits may not be removed, and the QoS class must stay. v1.36's gates
// InPlacePodVerticalScalingInitContainers and InPlacePodLevelResourcesVerticalScaling are on.
// Counterpart of pkg/registry/core/pod/strategy.go (podResizeStrategy) and pkg/apis/core/validation (ValidatePodResize).
import { fieldPath, forbidden, invalid, type FieldError, type FieldPath } from '../../../../apimachinery/errors/field-errors.ts';
import { deepEqual } from '../../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../../../registry/rest/strategy.ts';
import { subresourceStrategy } from '../../../../registry/rest/kit.ts';
import type { Container, Pod, PodSpec, ResourceList } from '../../v1/types.ts';
import { quantityOf } from '../../v1/resource-names.ts';
import { podStrategy } from '../pod.ts';
import { podQOSClass } from '../qos.ts';
import { validatePodAnnotationsAndSpec } from '../validation.ts';
import { keepOnly } from './ephemeral-containers.ts';

type RO<T> = DeepReadonly<T>;
type Resizable = Container & { resizePolicy?: unknown };
type Resources = NonNullable<Container['resources']>;
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const CPU_MEMORY = ['cpu', 'memory'];

/** dropNonResizeUpdatesForContainers: the old containers with the request's resources; undefined when renamed. */
function mergeResources(next: readonly Container[] | undefined, old: readonly Container[] | undefined): Container[] | undefined {
  const merged = structuredClone(old ?? []) as Resizable[];
  for (const [i, c] of (next ?? []).entries()) {
    const dst = merged[i];
    if (dst === undefined || dst.name !== c.name) return undefined;
    const src = c as Resizable;
    if (src.resources === undefined) delete dst.resources; else dst.resources = structuredClone(src.resources);
    if (src.resizePolicy === undefined) delete dst.resizePolicy; else dst.resizePolicy = structuredClone(src.resizePolicy);
  }
  return merged;
}

/** dropNonResizeUpdates: a request that adds, removes or renames containers is left for validation to refuse. */
function prepareResize(pod: Pod, old: RO<Pod>): void {
  if ((pod.spec.containers ?? []).length !== (old.spec.containers ?? []).length || (pod.spec.initContainers ?? []).length !== (old.spec.initContainers ?? []).length) return;
  const containers = mergeResources(pod.spec.containers, old.spec.containers as readonly Container[]);
  const initContainers = (pod.spec.initContainers ?? []).length === 0 ? pod.spec.initContainers
    : mergeResources(pod.spec.initContainers, old.spec.initContainers as readonly Container[] | undefined);
  const resources = pod.spec.resources;
  keepOnly(pod, old, (next) => {
    if (resources === undefined) delete next.spec.resources; else next.spec.resources = structuredClone(resources);
    next.spec.containers = containers ?? pod.spec.containers;
    if (initContainers === undefined) delete next.spec.initContainers; else next.spec.initContainers = initContainers;
  });
}

/** resourcesRemoved: a name of the old list missing from the new one. */
const removed = (next: RO<ResourceList> | undefined, prev: RO<ResourceList> | undefined): boolean =>
  Object.keys(prev ?? {}).some((k) => !Object.hasOwn(next ?? {}, k));

/** ResourceLists equal as kube's semantic equality sees them (quantities by value, nil and empty alike). */
function sameList(a: RO<ResourceList> | undefined, b: RO<ResourceList> | undefined): boolean {
  const ka = Object.keys(a ?? {}).sort();
  const kb = Object.keys(b ?? {}).sort();
  if (!deepEqual(ka, kb)) return false;
  return ka.every((k) => quantityOf(a?.[k])?.nano === quantityOf(b?.[k])?.nano);
}

/** dropCPUMemoryUpdates: the list with cpu and memory as they were. */
function withOldCPUMemory(list: RO<ResourceList> | undefined, old: RO<ResourceList> | undefined): Record<string, string | number> | undefined {
  if (list === undefined && old === undefined) return undefined;
  const out: Record<string, string | number> = { ...list };
  for (const k of CPU_MEMORY) {
    delete out[k];
    const v = old?.[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

const sameResources = (a: RO<Resources> | undefined, b: RO<Resources> | undefined): boolean =>
  sameList(a?.requests, b?.requests) && sameList(a?.limits, b?.limits) && deepEqual(a?.claims ?? [], b?.claims ?? []);

/** The container with cpu and memory changes undone equals the old one. */
function onlyCPUMemoryChanged(c: RO<Container>, old: RO<Container>): boolean {
  const { resources: r, ...rest } = c;
  const { resources: o, ...oldRest } = old;
  const munged = { requests: withOldCPUMemory(r?.requests, o?.requests), limits: withOldCPUMemory(r?.limits, o?.limits) };
  return deepEqual(rest, oldRest) && sameList(munged.requests, o?.requests) && sameList(munged.limits, o?.limits);
}

function validateContainerResize(c: RO<Container>, old: RO<Container>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (removed(c.resources?.requests, old.resources?.requests)) errs.push(forbidden(p.child('requests'), 'resource requests cannot be removed'));
  if (removed(c.resources?.limits, old.resources?.limits)) errs.push(forbidden(p.child('limits'), 'resource limits cannot be removed'));
  return errs;
}

function validateOrdering(pod: RO<Pod>, old: RO<Pod>, spec: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, what] of [['containers', 'containers'], ['initContainers', 'initContainers']] as const) {
    const next = pod.spec[k] ?? [];
    const prev = old.spec[k] ?? [];
    if (next.length !== prev.length) errs.push(forbidden(spec.child(k), `${what} may not be added or removed on resize`));
    else prev.forEach((c, i) => { if (next[i]?.name !== c.name) errs.push(forbidden(spec.child(k).index(i).child('name'), `${what} may not be renamed or reordered on resize`)); });
  }
  return errs;
}

const hasPodResources = (spec: RO<PodSpec>): boolean => Object.keys(spec.resources?.requests ?? {}).length + Object.keys(spec.resources?.limits ?? {}).length > 0;

/** validatePodLevelResourcesResize. */
function validatePodLevelResize(pod: RO<Pod>, old: RO<Pod>, spec: FieldPath): FieldError[] {
  const next = pod.spec.resources;
  const prev = old.spec.resources;
  if (prev !== undefined && next === undefined) return [forbidden(spec.child('resources'), 'pod-level resources cannot be removed')];
  const errs: FieldError[] = [];
  if (prev !== undefined) {
    if (removed(next?.requests, prev.requests)) errs.push(forbidden(spec.child('resources', 'requests'), 'pod-level resource requests cannot be removed'));
    if (removed(next?.limits, prev.limits)) errs.push(forbidden(spec.child('resources', 'limits'), 'pod-level resource limits cannot be removed'));
  }
  const munged = { requests: withOldCPUMemory(next?.requests, prev?.requests), limits: withOldCPUMemory(next?.limits, prev?.limits) };
  const mungedEmpty = Object.keys(munged.requests ?? {}).length + Object.keys(munged.limits ?? {}).length === 0 && (next?.claims ?? []).length === 0;
  const same = prev === undefined ? next === undefined || mungedEmpty : sameList(munged.requests, prev.requests) && sameList(munged.limits, prev.limits);
  if (!same) errs.push(forbidden(spec, 'only cpu and memory resources are mutable at pod-level'));
  return errs;
}

/** ValidatePodResize. */
export function validatePodResize(pod: RO<Pod>, old: RO<Pod>): FieldError[] {
  const errs = validatePodAnnotationsAndSpec(pod);
  // kube's path here is field.NewPath(""), printed as "[]"
  if (old.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined) return [forbidden('[]', 'static pods cannot be resized')];
  if (old.spec.os?.name === 'windows') return [forbidden('[]', 'windows pods cannot be resized')];
  const spec = fieldPath('spec');
  if ((old.status?.qosClass ?? podQOSClass(old as Pod)) !== podQOSClass(pod as Pod)) {
    errs.push(invalid(spec, pod.status?.qosClass ?? '', 'Pod QOS Class may not change as a result of resizing'));
  }
  const running = (old.status?.containerStatuses ?? []).find((s) => s.state?.running !== undefined);
  if (running !== undefined && (running as { resources?: unknown }).resources === undefined) errs.push(forbidden(spec, 'Pod running on node without support for resize'));
  if (hasPodResources(old.spec) || hasPodResources(pod.spec)) errs.push(...validatePodLevelResize(pod, old, spec));
  const ordering = validateOrdering(pod, old, spec);
  if (ordering.length > 0) return [...errs, ...ordering];
  const inits = pod.spec.initContainers ?? [];
  (old.spec.initContainers ?? []).forEach((o, i) => {
    const c = inits[i];
    if (c !== undefined) errs.push(...validateContainerResize(c, o, spec.child('initContainers').index(i).child('resources')));
  });
  old.spec.containers.forEach((o, i) => {
    const c = pod.spec.containers[i];
    if (c !== undefined) errs.push(...validateContainerResize(c, o, spec.child('containers').index(i).child('resources')));
  });
  pod.spec.containers.forEach((c, i) => {
    const o = old.spec.containers[i];
    if (o !== undefined && !onlyCPUMemoryChanged(c, o)) errs.push(forbidden(spec, 'only cpu and memory resources are mutable'));
  });
  inits.forEach((c, i) => {
    const o = old.spec.initContainers?.[i];
    if (o === undefined) return;
    const ip = spec.child('initContainers').index(i);
    if (!onlyCPUMemoryChanged(c, o)) errs.push(forbidden(ip, 'only cpu and memory resources for init or sidecar containers are mutable'));
    const modified = !sameResources(c.resources, o.resources) || !deepEqual((c as RO<Resizable>).resizePolicy, (o as RO<Resizable>).resizePolicy);
    if (modified && c.restartPolicy !== 'Always') {
      for (const rp of ((c as RO<Resizable>).resizePolicy ?? []) as readonly { restartPolicy?: string }[]) {
        if (rp.restartPolicy === 'RestartContainer') errs.push(forbidden(ip, 'non-sidecar init containers with a resize policy of RestartContainer cannot be resized'));
      }
    }
  });
  if (errs.length > 0) return errs;
  // anything else of the spec that differs
  const { containers: _c, initContainers: _i, resources: _r, ...rest } = pod.spec;
  const { containers: _oc, initContainers: _oi, resources: _or, ...oldRest } = old.spec;
  return deepEqual(rest, oldRest) ? [] : [forbidden(spec, 'only cpu and memory resources are mutable')];
}

export const podResizeStrategy = subresourceStrategy(podStrategy, {
  prepareForUpdate: (_ctx, pod, old) => prepareResize(pod, old),
  validate: (pod, old) => validatePodResize(pod, old),
});
