// Pod validation (pkg/apis/core/validation: ValidatePodCreate, validatePodMetadataAndSpec and
// ValidatePodSpec), shared with every pod template through validatePodSpec. The sub-validators live
// in one file per concern: volumes, containers, env, probes, resources, security-context,
// affinity and scheduling. Feature gates follow v1.36's defaults.
import { fieldPath, forbidden, invalid, notFound, notSupported, required, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateLabels, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { inclusiveRangeError } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Pod, PodSpec } from '../v1/types.ts';
import { validateAffinity, validateTolerations } from './affinity.ts';
import { validateAppArmorAnnotationsAndFields, validatePodSpecificAnnotations, validateSeccompAnnotationsAndFields } from './annotations.ts';
import { validateContainers, validateContainersOnlyForPod, validateEphemeralContainers, validateInitContainers } from './containers.ts';
import { validateForOS } from './os.ts';
import { validateOverhead, validatePodResources } from './resources.ts';
import {
  gatherPodResourceClaimNames, validateDNSConfig, validateHostAliases, validateImagePullSecrets, validateOS, validatePodResourceClaims,
  validateReadinessGates, validateSchedulingGates, validateTopologySpreadConstraints,
} from './scheduling.ts';
import { containersWithPath, hasHostUsersFalse, validateHostUsers, validatePodSecurityContext, validateWindowsHostProcessPod } from './security-context.ts';
import { child, dns1123Label, dns1123Subdomain, obj, objects, str } from './spec-access.ts';
import { validateVolumes } from './volumes.ts';

type RO<T> = DeepReadonly<T>;

export interface PodSpecOptions {
  /** The spec is a Pod's, not a template's (opts.ResourceIsPod): some checks are stricter. */
  readonly resourceIsPod: boolean;
  /** The pod's name (ValidatePodSpec's podMeta), for the claims of ephemeral volumes. */
  readonly podName?: string;
}

export function validateRestartPolicy(policy: string | undefined, p: FieldPath): FieldError[] {
  const v = policy ?? '';
  if (v === '') return [required(p)];
  const valid = ['Always', 'OnFailure', 'Never'];
  return valid.includes(v) ? [] : [notSupported(p, v, valid)];
}

function validateEnum(value: string | undefined, valid: readonly string[], p: FieldPath): FieldError[] {
  const v = value ?? '';
  if (v === '') return [required(p)];
  return valid.includes(v) ? [] : [notSupported(p, v, valid)];
}

/** validatePodHostNetworkDeps: with the host's network, a host port is the container port. */
function validateHostNetworkDeps(spec: RO<PodSpec>, resourceIsPod: boolean, p: FieldPath): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  (Array.isArray(spec.containers) ? spec.containers : []).forEach((c, i) => {
    objects(obj(c), 'ports').forEach((port, j) => {
      const hp = typeof port['hostPort'] === 'number' ? port['hostPort'] : 0;
      const cp = typeof port['containerPort'] === 'number' ? port['containerPort'] : 0;
      if ((resourceIsPod || hp !== 0) && hp !== cp) {
        errs.push(invalid(p.child('containers').index(i).child('ports').index(j).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

/** validatePodHostName: hostnameOverride (HostnameOverride is on in v1.36). */
function validateHostnameOverride(spec: RO<PodSpec>, p: FieldPath): FieldError[] {
  const override = (spec as RO<PodSpec> & { readonly hostnameOverride?: string }).hostnameOverride;
  if (typeof override !== 'string') return [];
  const hp = p.child('hostnameOverride');
  const errs: FieldError[] = [];
  if ((spec as RO<PodSpec> & { readonly setHostnameAsFQDN?: boolean }).setHostnameAsFQDN === true) {
    errs.push(forbidden(hp, 'may not be specified when setHostnameAsFQDN is true'));
  }
  if (spec.hostNetwork === true) errs.push(forbidden(hp, 'may not be specified when hostNetwork is true'));
  if (override.length > 64) errs.push({ type: 'FieldValueTooLong', field: String(hp), badValue: '', detail: 'may not be more than 64 bytes' });
  return [...errs, ...dns1123Subdomain(override, hp)];
}

/** validateFileKeyRefVolumes: an env file is read from an emptyDir volume of the pod. */
function validateFileKeyRefVolumes(spec: RO<PodSpec>, p: FieldPath): FieldError[] {
  const sources = new Map(arr(spec.volumes).map((v) => [str(obj(v), 'name'), obj(v) ?? {}] as const));
  const errs: FieldError[] = [];
  for (const { c, path } of containersWithPath(spec, p)) {
    objects(c, 'env').forEach((e, j) => {
      const ref = child(child(e, 'valueFrom'), 'fileKeyRef');
      if (ref === undefined) return;
      const name = str(ref, 'volumeName');
      const np = path.child('env').index(j).child('valueFrom', 'fileKeyRef', 'volumeName');
      const source = sources.get(name);
      if (source === undefined) errs.push(notFound(np, name));
      else if (child(source, 'emptyDir') === undefined) errs.push(invalid(np, name, 'referenced volume must be of type emptyDir'));
    });
  }
  return errs;
}

const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** ValidatePodSpec; `p` is `spec` for pods, `spec.template.spec` for templates. */
export function validatePodSpec(spec: RO<PodSpec>, p: FieldPath, opts: PodSpecOptions = { resourceIsPod: false }): FieldError[] {
  const errs: FieldError[] = [];
  const gracePeriod = spec.terminationGracePeriodSeconds;
  if (gracePeriod === undefined || gracePeriod === null) errs.push(required(p.child('terminationGracePeriodSeconds')));
  const volumes = validateVolumes(spec.volumes, p.child('volumes'), opts.resourceIsPod, opts.podName);
  errs.push(...volumes.errs);
  const claimNames = gatherPodResourceClaimNames(arr((spec as RO<PodSpec> & { readonly resourceClaims?: unknown }).resourceClaims));
  errs.push(...validatePodResourceClaims(arr((spec as RO<PodSpec> & { readonly resourceClaims?: unknown }).resourceClaims), p.child('resourceClaims')));
  const os = str(obj((spec as RO<PodSpec> & { readonly os?: unknown }).os), 'name');
  const blockVolumes = new Set(arr(spec.volumes).map((v) => obj(v) ?? {})
    .filter((v) => volumes.names.has(str(v, 'name')) && (child(v, 'persistentVolumeClaim') !== undefined || child(v, 'ephemeral') !== undefined))
    .map((v) => str(v, 'name')));
  const ctx = {
    volumes: volumes.names, blockVolumes, claimNames, gracePeriod: gracePeriod ?? undefined, os: os === '' ? undefined : os,
    podRestartPolicy: spec.restartPolicy ?? '', hostUsers: !hasHostUsersFalse(spec),
  };
  errs.push(...validateContainers(spec.containers, ctx, p.child('containers')));
  errs.push(...validateInitContainers(spec.initContainers, spec.containers, ctx, p.child('initContainers')));
  errs.push(...validateEphemeralContainers(spec.ephemeralContainers, spec.containers, spec.initContainers, ctx, p.child('ephemeralContainers')));
  errs.push(...validatePodResources(spec, ctx.os, claimNames, p.child('resources')));
  errs.push(...validateHostNetworkDeps(spec, opts.resourceIsPod, p));
  errs.push(...validateRestartPolicy(spec.restartPolicy, p.child('restartPolicy')));
  errs.push(...validateEnum(spec.dnsPolicy, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], p.child('dnsPolicy')));
  errs.push(...validateLabels(spec.nodeSelector, p.child('nodeSelector')));
  errs.push(...validatePodSecurityContext(spec, p));
  errs.push(...validateImagePullSecrets(arr(spec.imagePullSecrets), p.child('imagePullSecrets')));
  errs.push(...validateAffinity(spec.affinity, p.child('affinity')));
  errs.push(...validateDNSConfig((spec as RO<PodSpec> & { readonly dnsConfig?: unknown }).dnsConfig, spec.dnsPolicy ?? '', p.child('dnsConfig')));
  errs.push(...validateReadinessGates(arr(spec.readinessGates), p.child('readinessGates')));
  errs.push(...validateSchedulingGates(arr(spec.schedulingGates), p.child('schedulingGates')));
  errs.push(...validateTopologySpreadConstraints(arr(spec.topologySpreadConstraints), p.child('topologySpreadConstraints')));
  errs.push(...validateWindowsHostProcessPod(spec, p));
  errs.push(...validateHostUsers(spec, p));
  errs.push(...validateHostnameOverride(spec, p));
  if ((spec.serviceAccountName ?? '') !== '') {
    for (const m of nameIsDNSSubdomain(spec.serviceAccountName ?? '', false)) errs.push(invalid(p.child('serviceAccountName'), spec.serviceAccountName, m));
  }
  if ((spec.nodeName ?? '') !== '') {
    for (const m of nameIsDNSSubdomain(spec.nodeName ?? '', false)) errs.push(invalid(p.child('nodeName'), spec.nodeName, m));
  }
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > 2147483647)) {
    errs.push(invalid(p.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, 2147483647)));
  }
  if ((spec.hostname ?? '') !== '') errs.push(...dns1123Label(spec.hostname ?? '', p.child('hostname')));
  if ((spec.subdomain ?? '') !== '') errs.push(...dns1123Label(spec.subdomain ?? '', p.child('subdomain')));
  errs.push(...validateTolerations(arr(spec.tolerations), p.child('tolerations')));
  errs.push(...validateHostAliases(arr(spec.hostAliases), p.child('hostAliases')));
  if ((spec.priorityClassName ?? '') !== '') {
    for (const m of nameIsDNSSubdomain(spec.priorityClassName ?? '', false)) errs.push(invalid(p.child('priorityClassName'), spec.priorityClassName, m));
  }
  if (typeof spec.runtimeClassName === 'string') {
    for (const m of nameIsDNSSubdomain(spec.runtimeClassName, false)) errs.push(invalid(p.child('runtimeClassName'), spec.runtimeClassName, m));
  }
  if (typeof spec.preemptionPolicy === 'string') {
    errs.push(...validateEnum(spec.preemptionPolicy, ['PreemptLowerPriority', 'Never'], p.child('preemptionPolicy')));
  }
  errs.push(...validateOverhead(spec.overhead, p.child('overhead')));
  errs.push(...validateFileKeyRefVolumes(spec, p));
  const osErrs = validateOS((spec as RO<PodSpec> & { readonly os?: unknown }).os, p.child('os'));
  errs.push(...(osErrs.length > 0 ? osErrs : validateForOS(spec, os, p)));
  return errs;
}

/** validatePodMetadataAndSpec: what a pod must satisfy on create and on update. */
export function validatePod(pod: RO<Pod>): FieldError[] {
  return [...validateObjectMeta(pod.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain }), ...validatePodAnnotationsAndSpec(pod)];
}

/** validatePodMetadataAndSpec without ValidateObjectMeta (which the generic update path runs). */
export function validatePodAnnotationsAndSpec(pod: RO<Pod>): FieldError[] {
  const spec = pod.spec ?? { containers: [] };
  const specPath = fieldPath('spec');
  const errs = [
    ...validatePodSpecificAnnotations(pod.metadata.annotations, spec, fieldPath('metadata', 'annotations')),
    ...validatePodSpec(spec, specPath, { resourceIsPod: true, ...(pod.metadata.name === undefined ? {} : { podName: pod.metadata.name }) }),
  ];
  if ((spec.serviceAccountName ?? '') === '') {
    arr(spec.volumes).forEach((v, vi) => {
      objects(child(obj(v), 'projected'), 'sources').forEach((s, si) => {
        if (child(s, 'serviceAccountToken') !== undefined) {
          errs.push(forbidden(specPath.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken'),
            'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(spec.containers, specPath.child('containers')));
  errs.push(...validateContainersOnlyForPod(spec.initContainers, specPath.child('initContainers')));
  return errs;
}

/** ValidatePodCreate: ephemeral containers come only through their subresource; gates block binding. */
export function validatePodCreate(pod: RO<Pod>): FieldError[] {
  const errs = validatePod(pod);
  const spec = pod.spec ?? { containers: [] };
  if (arr(spec.ephemeralContainers).length > 0) errs.push(forbidden(fieldPath('spec', 'ephemeralContainers'), 'cannot be set on create'));
  if ((spec.nodeName ?? '') !== '' && arr(spec.schedulingGates).length > 0) {
    errs.push(forbidden(fieldPath('spec', 'nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  errs.push(...validateSeccompAnnotationsAndFields(pod.metadata.annotations, spec, fieldPath('spec')));
  errs.push(...validateAppArmorAnnotationsAndFields(pod.metadata.annotations, spec, fieldPath('spec')));
  return errs;
}
