// Pod binding (pkg/registry/core/pod/storage BindingREST and LegacyBindingREST): assigns an
// unbound pod to a node, as the scheduler does. Served as pods/binding and as the legacy
// `bindings` collection.
import { aggregateMessages, fieldPath, formatFieldError, notSupported, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { newBadRequest, newConflict } from '../../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import { nowRFC3339 } from '../../../registry/generic/names.ts';
import type { Creater, CreateOptions, ValidateObjectFunc } from '../../../registry/rest/capabilities.ts';
import type { StoreLookup, VirtualResource } from '../../../registry/rest/group.ts';
import type { DeepReadonly, ResourceStore } from '../../../registry/rest/strategy.ts';
import { statusSuccess, unknownError } from '../pod/subresources/status.ts';
import type { Pod, PodCondition } from '../v1/types.ts';
import type { Binding } from './types.ts';

/** ValidatePodBinding: the target must name a Node. */
export function validateBinding(b: DeepReadonly<Binding>): FieldError[] {
  const errs: FieldError[] = [];
  const kind = b.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node') errs.push(notSupported(fieldPath('target', 'kind'), kind, ['Node', '<empty>']));
  if ((b.target?.name ?? '') === '') errs.push(required(fieldPath('target', 'name'), ''));
  return errs;
}

/** A refusal found while looking at the stored pod; kube wraps these in a pods/binding Conflict. */
class BindingRefused extends Error {}

/** Sets spec.nodeName of an unbound pod, merges the binding's annotations and labels, marks it scheduled. */
function bindPod(current: KubeObject, b: DeepReadonly<Binding>, now: string): KubeObject {
  const pod = structuredClone(current) as Pod;
  const name = pod.metadata.name ?? '';
  const uid = b.metadata.uid ?? '';
  const rv = b.metadata.resourceVersion ?? '';
  if (uid !== '' && uid !== pod.metadata.uid) {
    throw newConflict({ group: '', resource: 'pods' }, name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid ?? ''}`);
  }
  if (rv !== '' && rv !== pod.metadata.resourceVersion) {
    throw newConflict({ group: '', resource: 'pods' }, name,
      `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${pod.metadata.resourceVersion ?? ''}`);
  }
  if (pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null) {
    throw new BindingRefused(`pod ${name} is being deleted, cannot be assigned to a host`);
  }
  if ((pod.spec.nodeName ?? '') !== '') throw new BindingRefused(`pod ${name} is already assigned to node "${pod.spec.nodeName ?? ''}"`);
  if ((pod.spec.schedulingGates ?? []).length > 0) throw new BindingRefused(`pod ${name} has non-empty .spec.schedulingGates`);
  pod.spec.nodeName = b.target.name ?? '';
  const annotations = b.metadata.annotations ?? {};
  if (Object.keys(annotations).length > 0) pod.metadata.annotations = { ...pod.metadata.annotations, ...annotations };
  const labels = b.metadata.labels ?? {};
  if (Object.keys(labels).length > 0) pod.metadata.labels = { ...pod.metadata.labels, ...labels };
  const status = pod.status ?? {};
  delete status.nominatedNodeName;
  status.conditions = setScheduledCondition(status.conditions ?? [], now);
  pod.status = status;
  return pod as KubeObject;
}

/** UpdatePodCondition: replaces PodScheduled, moving lastTransitionTime only when the status changes. */
function setScheduledCondition(conditions: PodCondition[], now: string): PodCondition[] {
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = conditions[i];
  const next: PodCondition = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now };
  if (old === undefined) return [...conditions, next];
  if (old.status === 'True' && old.lastTransitionTime !== undefined) next.lastTransitionTime = old.lastTransitionTime;
  return conditions.map((c, j) => (j === i ? next : c));
}

/** Checks, admits and applies a binding to the pod `name` of `pods`. */
async function assign(pods: ResourceStore<KubeObject>, ctx: RequestContext, name: string, obj: KubeObject,
  validate: ValidateObjectFunc | undefined, opts: CreateOptions): Promise<KubeObject> {
  const b = obj as Binding;
  if (name !== (b.metadata.name ?? '')) throw newBadRequest('name in URL does not match name in Binding object');
  const errs = validateBinding(b);
  // kube returns the aggregate as a plain error, which ErrorToAPIStatus makes a 500
  if (errs.length > 0) throw unknownError(aggregateMessages(errs.map(formatFieldError)));
  if (validate !== undefined) await validate(structuredClone(obj));
  try {
    await pods.updateUnchecked(ctx, name, (cur) => bindPod(cur, b, nowRFC3339()),
      { dryRun: opts.dryRun });
  } catch (err) {
    if (err instanceof BindingRefused) throw newConflict({ group: '', resource: 'pods/binding' }, name, err.message);
    throw err;
  }
  return statusSuccess() as KubeObject;
}

/** pods/binding: the pod is the one named in the URL. */
export function newBindingREST(pods: ResourceStore<KubeObject>): Creater {
  return {
    create: (ctx, obj, validate, opts) => assign(pods, ctx, ctx.info.name, obj, validate, opts),
  };
}

/** The legacy `bindings` collection: the pod is the one the Binding names. */
export const bindings: VirtualResource = {
  resource: 'bindings', kind: 'Binding', singular: 'binding', namespaced: true,
  storage(lookup: StoreLookup): Creater {
    return {
      async create(ctx, obj, validate, opts) {
        const pods = lookup('pods');
        if (pods === undefined) throw unknownError('pod storage is not available');
        return assign(pods, ctx, obj.metadata.name ?? '', obj, validate, opts);
      },
    };
  },
};
