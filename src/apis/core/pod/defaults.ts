// Versioned defaulting of pods and pod templates (pkg/apis/core/v1/defaults.go: SetDefaults_Pod,
// _PodSpec, _Container, _Probe, _Volume, ...). serviceAccountName and priority are set by
// admission plugins, not here.
import { defaultVolumeSources } from '../volume-defaults.ts';
import type { Container, PodSpec, Pod, Probe, ProbeHandler, Volume } from '../v1/types.ts';
import { defaultPodLevelResources } from './pod-resources.ts';
import { normalizePodIPs } from './status-validation.ts';
import { roundUpResourceList } from '../v1/resource-names.ts';

const DEFAULT_MODE = 0o644; // 420

/** Always for ":latest" or no tag, IfNotPresent otherwise (digests count as pinned). */
export function defaultImagePullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const lastColon = image.lastIndexOf(':');
  const tag = lastColon > lastSlash ? image.slice(lastColon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultHandler(h: ProbeHandler | undefined): void {
  if (h?.httpGet !== undefined) {
    if (h.httpGet.path === undefined || h.httpGet.path === '') h.httpGet.path = '/';
    if (h.httpGet.scheme === undefined || h.httpGet.scheme === '') h.httpGet.scheme = 'HTTP';
  }
}

function defaultProbe(p: Probe | undefined): void {
  if (p === undefined) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  defaultHandler(p);
}

function defaultLifecycle(lifecycle: Record<string, unknown> | undefined): void {
  for (const key of ['postStart', 'preStop']) {
    const h = lifecycle?.[key];
    if (typeof h === 'object' && h !== null) defaultHandler(h as ProbeHandler);
  }
}

function defaultEnvFieldRefs(c: Container): void {
  for (const e of c.env ?? []) {
    const fieldRef = e.valueFrom?.['fieldRef'];
    if (typeof fieldRef === 'object' && fieldRef !== null) {
      const ref = fieldRef as { apiVersion?: string };
      if (ref.apiVersion === undefined || ref.apiVersion === '') ref.apiVersion = 'v1';
    }
  }
}

/** SetDefaults_Container + ports, probes and lifecycle handlers. */
export function defaultContainer(c: Container): void {
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === '') c.imagePullPolicy = defaultImagePullPolicy(c.image ?? '');
  if (c.terminationMessagePath === undefined || c.terminationMessagePath === '') c.terminationMessagePath = '/dev/termination-log';
  if (c.terminationMessagePolicy === undefined || c.terminationMessagePolicy === '') c.terminationMessagePolicy = 'File';
  for (const p of c.ports ?? []) {
    if (p.protocol === undefined || p.protocol === '') p.protocol = 'TCP';
  }
  c.resources ??= {};
  roundUpResourceList(c.resources.limits);
  roundUpResourceList(c.resources.requests);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultLifecycle(c.lifecycle);
  defaultEnvFieldRefs(c);
}

const KNOWN_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral', 'image',
];

export function volumeSources(v: { readonly [k: string]: unknown }): string[] {
  return KNOWN_SOURCES.filter((s) => v[s] !== undefined && v[s] !== null);
}

/** SetDefaults_Volume and the defaultMode of projected-style sources. */
export function defaultVolume(v: Volume): void {
  if (volumeSources(v).length === 0) v.emptyDir = {};
  // SetDefaults_Volume: an image volume pulls as a container image would (ImageVolume is GA)
  const image = v['image'];
  if (typeof image === 'object' && image !== null) {
    const src = image as { reference?: string; pullPolicy?: string };
    if (src.pullPolicy === undefined || src.pullPolicy === '') src.pullPolicy = defaultImagePullPolicy(src.reference ?? '');
  }
  if (v.configMap !== undefined) v.configMap.defaultMode ??= DEFAULT_MODE;
  if (v.secret !== undefined) v.secret.defaultMode ??= DEFAULT_MODE;
  if (v.projected !== undefined) {
    v.projected.defaultMode ??= DEFAULT_MODE;
    // SetDefaults_ServiceAccountTokenProjection: an hour
    for (const s of v.projected.sources ?? []) {
      const token = s['serviceAccountToken'];
      if (typeof token === 'object' && token !== null) (token as { expirationSeconds?: number }).expirationSeconds ??= 3600;
    }
  }
  if (v.downwardAPI !== undefined) {
    v.downwardAPI.defaultMode ??= DEFAULT_MODE;
    for (const item of v.downwardAPI.items ?? []) {
      const ref = item['fieldRef'] as { apiVersion?: string } | undefined;
      if (ref !== undefined && (ref.apiVersion === undefined || ref.apiVersion === '')) ref.apiVersion = 'v1';
    }
  }
  defaultVolumeSources(v as Record<string, unknown>);
}

/** SetDefaults_PodSpec plus the per-container and per-volume defaults. */
export function defaultPodSpec(spec: PodSpec): void {
  if (spec.dnsPolicy === undefined || spec.dnsPolicy === '') spec.dnsPolicy = 'ClusterFirst';
  if (spec.restartPolicy === undefined || spec.restartPolicy === '') spec.restartPolicy = 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  if (spec.schedulerName === undefined || spec.schedulerName === '') spec.schedulerName = 'default-scheduler';
  // The v1 field serviceAccount is the deprecated alias of serviceAccountName.
  if ((spec.serviceAccountName ?? '') === '' && (spec.serviceAccount ?? '') !== '') spec.serviceAccountName = spec.serviceAccount ?? '';
  if ((spec.serviceAccountName ?? '') !== '') spec.serviceAccount = spec.serviceAccountName ?? '';
  spec.containers ??= [];
  roundUpResourceList(spec.overhead);
  roundUpResourceList(spec.resources?.limits);
  roundUpResourceList(spec.resources?.requests);
  for (const c of [...spec.containers, ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    defaultContainer(c);
  }
  for (const v of spec.volumes ?? []) defaultVolume(v);
}

/** SetDefaults_Pod: only pods (not templates) get requests from limits, host ports and service links. */
export function defaultPod(pod: Pod): void {
  pod.spec ??= { containers: [] };
  const spec = pod.spec;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    const limits = c.resources?.limits;
    if (limits !== undefined && Object.keys(limits).length > 0) {
      const requests = { ...c.resources?.requests };
      for (const [name, q] of Object.entries(limits)) if (!Object.hasOwn(requests, name)) requests[name] = q;
      c.resources = { ...c.resources, requests };
    }
    if (spec.hostNetwork === true) {
      for (const p of c.ports ?? []) if (p.hostPort === undefined || p.hostPort === 0) p.hostPort = p.containerPort;
    }
  }
  defaultPodLevelResources(pod);
  spec.enableServiceLinks ??= true;
  defaultPodSpec(spec);
  normalizePodIPs(pod.status);
  for (const s of [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])]) {
    const st = s as { allocatedResources?: Record<string, string>; resources?: { limits?: Record<string, string>; requests?: Record<string, string> } };
    roundUpResourceList(st.allocatedResources);
    roundUpResourceList(st.resources?.limits);
    roundUpResourceList(st.resources?.requests);
  }
}
