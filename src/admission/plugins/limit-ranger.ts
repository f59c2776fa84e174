// LimitRanger (plugin/pkg/admission/limitranger): a pod created in a namespace with LimitRanges
// gets their container defaults (and an annotation saying so), and pods and claims must then keep
// within their min, max and maxLimitRequestRatio, or are refused with 403.
import { newForbidden } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import { addQ, canonical, greater, milliValue, toQ, wholeValue, type Q } from './limit-ranger-quantity.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

/** The wire shape of core/v1 LimitRange that LimitRanger reads (admission sits below apis/). */
type ResourceList = Record<string, string | number>;
export interface LimitRangeItem {
  type: string; max?: ResourceList; min?: ResourceList; default?: ResourceList; defaultRequest?: ResourceList; maxLimitRequestRatio?: ResourceList;
}
export interface LimitRange extends KubeObject { spec?: { limits: LimitRangeItem[] } }

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';
/** resource.MaxMilliValue: above it Go compares whole values instead of milli-values. */
const MAX_MILLI_VALUE = ((1n << 63n) - 1n) / 1000n;

/** The LimitRanges of a namespace. */
export type LimitRangeLister = (namespace: string) => Promise<readonly LimitRange[]>;

interface Resources { limits?: ResourceList; requests?: ResourceList }
interface ContainerLike { name: string; resources?: Resources; restartPolicy?: string }
interface PodLike extends KubeObject { spec?: { containers?: ContainerLike[]; initContainers?: ContainerLike[] } }
interface ClaimLike extends KubeObject { spec?: { resources?: Resources } }

type Quantities = Map<string, Q>;

function quantities(list: ResourceList | undefined): Quantities {
  const m: Quantities = new Map();
  for (const [k, v] of Object.entries(list ?? {})) {
    const q = toQ(v);
    if (q !== undefined) m.set(k, q);
  }
  return m;
}

/** requestLimitEnforcedValues: all three at milli precision unless one would overflow it. */
function comparable(req: Q | undefined, lim: Q | undefined, enforced: Q): [bigint, bigint, bigint] {
  const whole = [req, lim, enforced].map((q) => (q === undefined ? 0n : wholeValue(q)));
  if (whole.every((v) => v <= MAX_MILLI_VALUE)) {
    return [req === undefined ? 0n : milliValue(req), lim === undefined ? 0n : milliValue(lim), milliValue(enforced)];
  }
  return [whole[0] ?? 0n, whole[1] ?? 0n, whole[2] ?? 0n];
}

function minConstraint(type: string, name: string, enforced: Q, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (req === undefined) return `minimum ${name} usage per ${type} is ${canonical(enforced)}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${canonical(enforced)}, but request is ${canonical(req)}`;
  if (lim !== undefined && l < e) return `minimum ${name} usage per ${type} is ${canonical(enforced)}, but limit is ${canonical(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Q, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${canonical(enforced)}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${canonical(enforced)}, but limit is ${canonical(lim)}`;
  if (req !== undefined && r > e) return `maximum ${name} usage per ${type} is ${canonical(enforced)}, but request is ${canonical(req)}`;
  return undefined;
}

/** For claims: the max applies to what is requested (a claim's limits are not user input). */
function maxRequestConstraint(type: string, name: string, enforced: Q, requests: Quantities): string | undefined {
  const req = requests.get(name);
  const [r, , e] = comparable(req, undefined, enforced);
  if (req === undefined) return `maximum ${name} usage per ${type} is ${canonical(enforced)}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${canonical(enforced)}, but request is ${canonical(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Q, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = comparable(req, lim, enforced);
  const max = canonical(enforced);
  if (req === undefined || r === 0n) return `${name} max limit to request ratio per ${type} is ${max}, but no request is specified or request is 0`;
  if (lim === undefined || l === 0n) return `${name} max limit to request ratio per ${type} is ${max}, but no limit is specified or limit is 0`;
  // float64 arithmetic, as kube's
  const ratio = Number(l) / Number(r);
  const fine = wholeValue(enforced) <= MAX_MILLI_VALUE;
  if ((fine ? ratio * 1000 : ratio) > Number(fine ? milliValue(enforced) : wholeValue(enforced))) {
    return `${name} max limit to request ratio per ${type} is ${max}, but provided ratio is ${ratio.toFixed(6)}`;
  }
  return undefined;
}

/** Every constraint of one item against one set of requests and limits. */
function checkItem(item: LimitRangeItem, requests: Quantities, limits: Quantities, errs: string[]): void {
  const push = (e: string | undefined): void => { if (e !== undefined) errs.push(e); };
  for (const [k, v] of quantities(item.min)) push(minConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of quantities(item.max)) push(maxConstraint(item.type, k, v, requests, limits));
  for (const [k, v] of quantities(item.maxLimitRequestRatio)) push(ratioConstraint(item.type, k, v, requests, limits));
}

function addInto(into: Quantities, from: Quantities): void {
  for (const [k, q] of from) { const cur = into.get(k); into.set(k, cur === undefined ? q : addQ(cur, q)); }
}

function maxInto(into: Quantities, from: Quantities): void {
  for (const [k, q] of from) { const cur = into.get(k); if (cur === undefined || greater(q, cur)) into.set(k, q); }
}

/** A pod's effective requests or limits: containers and sidecars add up, init containers take the max. */
function podTotal(pod: PodLike, which: keyof Resources): Quantities {
  const total: Quantities = new Map();
  for (const c of pod.spec?.containers ?? []) addInto(total, quantities(c.resources?.[which]));
  const sidecars: Quantities = new Map();
  const init: Quantities = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = quantities(c.resources?.[which]);
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(init, sidecars);
    } else {
      const tmp: Quantities = new Map();
      addInto(tmp, own);
      addInto(tmp, sidecars);
      maxInto(init, tmp);
    }
  }
  maxInto(total, init);
  return total;
}

/** Sets the defaults a container lacks; returns the annotation fragments describing them. */
function defaultContainer(c: ContainerLike, kind: string, limits: ResourceList, requests: ResourceList): string[] {
  const set = (which: keyof Resources, defaults: ResourceList): string[] => {
    const added: string[] = [];
    for (const [k, v] of Object.entries(defaults)) {
      const res = c.resources ?? {};
      const list = res[which] ?? {};
      if (Object.hasOwn(list, k)) continue;
      setKey(list, k, v);
      res[which] = list;
      c.resources = res;
      added.push(k);
    }
    return added.sort();
  };
  const limitsSet = set('limits', limits);
  const requestsSet = set('requests', requests);
  const out: string[] = [];
  if (requestsSet.length > 0) out.push(`${requestsSet.join(', ')} request for ${kind} ${c.name}`);
  if (limitsSet.length > 0) out.push(`${limitsSet.join(', ')} limit for ${kind} ${c.name}`);
  return out;
}

/** PodMutateLimitFunc: the Container item's default and defaultRequest, and the annotation. */
export function defaultPod(lr: LimitRange, pod: PodLike): void {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  const notes = [
    ...(pod.spec?.containers ?? []).flatMap((c) => defaultContainer(c, 'container', limits, requests)),
    ...(pod.spec?.initContainers ?? []).flatMap((c) => defaultContainer(c, 'init container', limits, requests)),
  ];
  if (notes.length > 0) {
    pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

/** PodValidateLimitFunc: the messages of every violated constraint. */
export function validatePod(lr: LimitRange, pod: PodLike): string[] {
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        checkItem(item, quantities(c.resources?.requests), quantities(c.resources?.limits), errs);
      }
    } else if (item.type === 'Pod') {
      checkItem(item, podTotal(pod, 'requests'), podTotal(pod, 'limits'), errs);
    }
  }
  return errs;
}

/** PersistentVolumeClaimValidateLimitFunc: min and max of the storage requested. */
export function validateClaim(lr: LimitRange, pvc: ClaimLike): string[] {
  const errs: string[] = [];
  const requests = quantities(pvc.spec?.resources?.requests);
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of quantities(item.min)) { const e = minConstraint(item.type, k, v, requests, new Map()); if (e !== undefined) errs.push(e); }
    for (const [k, v] of quantities(item.max)) { const e = maxRequestConstraint(item.type, k, v, requests); if (e !== undefined) errs.push(e); }
  }
  return errs;
}

/** utilerrors.NewAggregate(errs).Error(): one message alone, several in brackets, duplicates once. */
function aggregate(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

/** The name admission.NewForbidden reports: the request's, else the object's or its generateName, else Unknown. */
export function admissionName(a: Attributes): string {
  if (a.name !== '') return a.name;
  const meta = a.object?.metadata;
  return meta?.name !== undefined && meta.name !== '' ? meta.name
    : meta?.generateName !== undefined && meta.generateName !== '' ? meta.generateName : 'Unknown';
}

type Target = { kind: 'pod'; obj: PodLike } | { kind: 'claim'; obj: ClaimLike };

/** SupportsAttributes: pods on create, claims on create and update; never a subresource. */
function target(a: Attributes): Target | undefined {
  if (a.subresource !== '' || a.object === undefined || a.kind.group !== '') return undefined;
  if (a.kind.kind === 'Pod' && a.operation === 'CREATE') return { kind: 'pod', obj: a.object as PodLike };
  if (a.kind.kind === 'PersistentVolumeClaim') return { kind: 'claim', obj: a.object as ClaimLike };
  return undefined;
}

export function limitRanger(list: LimitRangeLister): Plugin {
  const ranges = async (a: Attributes): Promise<{ t: Target; items: readonly LimitRange[] } | undefined> => {
    const t = target(a);
    // Objects on their way out are left alone.
    if (t === undefined || a.oldObject?.metadata.deletionTimestamp !== undefined) return undefined;
    return { t, items: await list(a.namespace) };
  };
  const forbid = (a: Attributes, errs: readonly string[]): Error =>
    newForbidden({ group: a.resource.group, resource: a.resource.resource }, admissionName(a), aggregate(errs));
  return {
    name: 'LimitRanger',
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      const found = await ranges(a);
      if (found?.t.kind !== 'pod') return;
      for (const lr of found.items) defaultPod(lr, found.t.obj);
    },
    async validate(_ctx: RequestContext, a: Attributes): Promise<void> {
      const found = await ranges(a);
      if (found === undefined) return;
      const { t } = found;
      for (const lr of found.items) {
        const errs = t.kind === 'pod' ? validatePod(lr, t.obj) : validateClaim(lr, t.obj);
        if (errs.length > 0) throw forbid(a, errs);
      }
    },
  };
}
