// Pod status validation (ValidatePodStatusUpdate and its helpers): conditions, IPs, the
// nominated node, qosClass, container state transitions, container users and allocated
// resource health, resource claim statuses. The v1 podIP/podIPs pair is reconciled as kube's
// conversion does (podIP wins when they disagree).
// Counterpart of pkg/apis/core/validation/validation.go (ValidatePodStatusUpdate).
import { duplicate, fieldPath, forbidden, GoSyntax, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isValidIPForLegacyField, parseIPSloppy } from '../../../apimachinery/validation/ip.ts';
import { validateImmutableField } from '../../../apimachinery/validation/object-meta.ts';
import { isDNS1123Subdomain, isQualifiedName, isValidUserID } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Pod, PodStatus } from '../v1/types.ts';
import { validatePodSpecificAnnotationUpdates } from './annotations.ts';
import { child, list, num, obj, objects, str, type Obj } from './spec-access.ts';

type RO<T> = DeepReadonly<T>;
const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);
const HEALTH = ['Healthy', 'Unhealthy', 'Unknown'];
const HEALTH_MESSAGE_MAX = 1024;

/** Convert_v1_PodStatus_To_core_PodStatus: podIP is authoritative; podIPs follows it; podIP is podIPs[0]. */
export function normalizePodIPs(status: PodStatus | undefined): void {
  if (status === undefined) return;
  const ip = status.podIP ?? '';
  if (ip !== '' && (status.podIPs ?? []).length > 0 && status.podIPs?.[0]?.ip !== ip) status.podIPs = [{ ip }];
  if (ip !== '' && (status.podIPs ?? []).length === 0) status.podIPs = [{ ip }];
  const first = status.podIPs?.[0]?.ip;
  if (first !== undefined) status.podIP = first;
}

function validateConditions(conditions: readonly Obj[]): FieldError[] {
  const p = fieldPath('status', 'conditions');
  return conditions.flatMap((c, i) => {
    const errs: FieldError[] = [];
    const gen = num(c, 'observedGeneration');
    if (gen !== undefined && gen < 0) errs.push(invalid(p.index(i).child('observedGeneration'), gen, 'must be a non-negative integer'));
    const type = str(c, 'type');
    if (!SYSTEM_CONDITIONS.has(type)) errs.push(...isQualifiedName(type).map((m) => invalid(p.index(i).child('Type'), type, m)));
    return errs;
  });
}

/** validatePodIPs / validateHostIPs: valid (or kept) IPs, one per family. */
function validateIPs(ips: readonly Obj[], old: readonly Obj[], p: FieldPath): FieldError[] {
  const values = ips.map((o) => str(o, 'ip'));
  const errs = values.flatMap((ip, i) => isValidIPForLegacyField(p.index(i), ip, true, old.map((o) => str(o, 'ip'))));
  if (values.length > 1) {
    const families = values.map((ip) => parseIPSloppy(ip)?.v4);
    const dualStack = values.length === 2 && families[0] !== undefined && families[1] !== undefined && families[0] !== families[1];
    if (!dualStack) errs.push(invalid(p, new GoSyntax(JSON.stringify(values.map((ip) => ({ IP: ip })))), 'may specify no more than one IP for each IP family'));
  }
  return errs;
}

/** A terminated container may run again only if its restart policy restarts it. */
function mayRestart(status: Obj, container: Obj | undefined, podPolicy: string, init: boolean): boolean {
  const exitCode = num(child(child(status, 'state'), 'terminated'), 'exitCode') ?? 0;
  const own = str(container, 'restartPolicy');
  if (init && own === 'Always') return true;
  const policy = own === '' ? podPolicy : own;
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

function validateStateTransitions(next: readonly Obj[], prev: readonly Obj[], containers: readonly Obj[], podPolicy: string, init: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  prev.forEach((old, i) => {
    if (child(child(old, 'state'), 'terminated') === undefined) return;
    const now = next.find((s) => str(s, 'name') === str(old, 'name'));
    if (now === undefined || child(child(now, 'state'), 'terminated') !== undefined) return;
    const container = containers.find((c) => str(c, 'name') === str(old, 'name'));
    if (!mayRestart(old, container, podPolicy, init)) errs.push(forbidden(p.index(i).child('state'), 'may not be transitioned to non-terminated state'));
  });
  return errs;
}

function validateUsers(statuses: readonly Obj[], windows: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  statuses.forEach((s, i) => {
    const linux = child(child(s, 'user'), 'linux');
    if (linux === undefined) return;
    const lp = p.index(i).child('user', 'linux');
    if (windows) { errs.push(forbidden(lp, 'cannot be set for a windows pod')); return; }
    for (const k of ['uid', 'gid']) {
      const id = num(linux, k) ?? 0;
      errs.push(...isValidUserID(id).map((m) => invalid(lp.child(k), id, m)));
    }
    list(linux, 'supplementalGroups').forEach((g, j) => {
      const id = typeof g === 'number' ? g : 0;
      errs.push(...isValidUserID(id).map((m) => invalid(lp.child('supplementalGroups').index(j), id, m)));
    });
  });
  return errs;
}

/** validateContainerStatusAllocatedResourcesStatus: names the container asks for, health known, ids once. */
function validateAllocatedResourcesStatus(statuses: readonly Obj[], containers: readonly Obj[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  statuses.forEach((s, i) => {
    const container = containers.find((c) => str(c, 'name') === str(s, 'name'));
    objects(s, 'allocatedResourcesStatus').forEach((a, j) => {
      const ap = p.index(i).child('allocatedResourcesStatus').index(j);
      const name = str(a, 'name');
      if (container !== undefined) {
        const resources = child(container, 'resources');
        if (name.startsWith('claim:')) {
          const known = objects(resources, 'claims').map((c) => `claim:${str(c, 'name')}${str(c, 'request') === '' ? '' : `/${str(c, 'request')}`}`);
          if (!known.includes(name)) {
            errs.push(invalid(ap.child('name'), name, "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty"));
          }
        } else if (!Object.hasOwn(child(resources, 'requests') ?? {}, name)) {
          errs.push(invalid(ap.child('name'), name, "must match one of the container's resource requests"));
        }
      }
      const ids = new Set<string>();
      objects(a, 'resources').forEach((r, k) => {
        const rp = ap.child('resources').index(k);
        const health = str(r, 'health');
        if (!HEALTH.includes(health)) errs.push(notSupported(rp.child('health'), health, HEALTH));
        const message = r['message'];
        if (typeof message === 'string') {
          if (message === '') errs.push(required(rp.child('message'), 'must be non-empty if specified'));
          else if (message.length > HEALTH_MESSAGE_MAX) errs.push(tooLong(rp.child('message'), message, HEALTH_MESSAGE_MAX));
        }
        const id = str(r, 'resourceID');
        if (ids.has(id)) errs.push(duplicate(rp.child('resourceID'), id));
        else ids.add(id);
      });
    });
  });
  return errs;
}

function validateResourceClaimStatuses(statuses: readonly Obj[], claims: readonly Obj[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  statuses.forEach((s, i) => {
    const name = str(s, 'name');
    if (!claims.some((c) => str(c, 'name') === name)) errs.push(invalid(p.index(i).child('name'), name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (names.has(name)) errs.push(duplicate(p.index(i).child('name'), name));
    else names.add(name);
    const claimName = s['resourceClaimName'];
    if (typeof claimName === 'string') errs.push(...isDNS1123Subdomain(claimName).map((m) => invalid(p.index(i).child('resourceClaimName'), claimName, m)));
  });
  return errs;
}

/** ValidatePodStatusUpdate (the object meta update is checked by the generic update path). */
export function validatePodStatusUpdate(pod: RO<Pod>, old: RO<Pod>): FieldError[] {
  const errs = validatePodSpecificAnnotationUpdates(pod.metadata.annotations, old.metadata.annotations, pod.spec, fieldPath('metadata', 'annotations'));
  const status = obj(pod.status) ?? {};
  const oldStatus = obj(old.status) ?? {};
  const sp = fieldPath('status');
  const spec = obj(pod.spec) ?? {};
  const oldSpec = obj(old.spec) ?? {};
  errs.push(...validateConditions(objects(status, 'conditions')));
  if (str(spec, 'nodeName') !== str(oldSpec, 'nodeName')) errs.push(forbidden(sp.child('nodeName'), 'may not be changed directly'));
  const nominated = str(status, 'nominatedNodeName');
  if (nominated !== str(oldStatus, 'nominatedNodeName') && nominated !== '') {
    errs.push(...isDNS1123Subdomain(nominated).map((m) => invalid(sp.child('nominatedNodeName'), nominated, m)));
    // ClearingNominatedNodeNameAfterBinding (on in v1.36)
    if (str(oldSpec, 'nodeName') !== '') errs.push(forbidden(sp.child('nominatedNodeName'), 'may not be set on pods that are already bound to a node'));
  }
  const gen = num(status, 'observedGeneration');
  if (gen !== undefined && gen < 0) errs.push(invalid(sp.child('observedGeneration'), gen, 'must be a non-negative integer'));
  errs.push(...validateImmutableField(str(status, 'qosClass'), str(oldStatus, 'qosClass'), sp.child('qosClass')));
  const policy = str(oldSpec, 'restartPolicy');
  errs.push(...validateStateTransitions(objects(status, 'containerStatuses'), objects(oldStatus, 'containerStatuses'), objects(oldSpec, 'containers'), policy, false,
    sp.child('containerStatuses')));
  errs.push(...validateStateTransitions(objects(status, 'initContainerStatuses'), objects(oldStatus, 'initContainerStatuses'), objects(oldSpec, 'initContainers'), policy, true,
    sp.child('initContainerStatuses')));
  errs.push(...validateStateTransitions(objects(status, 'ephemeralContainerStatuses'), objects(oldStatus, 'ephemeralContainerStatuses'), [], 'Never', false,
    sp.child('ephemeralContainerStatuses')));
  errs.push(...validateResourceClaimStatuses(objects(status, 'resourceClaimStatuses'), objects(spec, 'resourceClaims'), sp.child('resourceClaimStatuses')));
  errs.push(...validateIPs(objects(status, 'podIPs'), objects(oldStatus, 'podIPs'), sp.child('podIPs')));
  const hostIPs = objects(status, 'hostIPs');
  if (hostIPs.length > 0) {
    const first = str(hostIPs[0], 'ip');
    if (str(status, 'hostIP') !== first) errs.push(invalid(sp.child('hostIPs').index(0).child('ip'), first, 'must be equal to `hostIP`'));
    errs.push(...validateIPs(hostIPs, objects(oldStatus, 'hostIPs'), sp.child('hostIPs')));
  }
  const windows = str(child(spec, 'os'), 'name') === 'windows';
  for (const k of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) errs.push(...validateUsers(objects(status, k), windows, sp.child(k)));
  errs.push(...validateAllocatedResourcesStatus(objects(status, 'containerStatuses'), objects(spec, 'containers'), sp.child('containerStatuses')));
  errs.push(...validateAllocatedResourcesStatus(objects(status, 'initContainerStatuses'), objects(spec, 'initContainers'), sp.child('initContainerStatuses')));
  objects(status, 'ephemeralContainerStatuses').forEach((s, i) => {
    if (list(s, 'allocatedResourcesStatus').length > 0) errs.push(forbidden(sp.child('ephemeralContainerStatuses').index(i).child('allocatedResourcesStatus'), 'must not be specified in container status'));
  });
  return errs;
}
