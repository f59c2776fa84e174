// The restricted checks: no privilege escalation, capabilities dropped, default /proc, only
// ephemeral-style volume types, non-root users and a seccomp profile; several replace the baseline
// check of the same field.
// Counterpart of k8s.io/pod-security-admission/policy/check_{allowPrivilegeEscalation,
// capabilities_restricted,procMount_restricted,restrictedVolumes,runAsNonRoot,runAsUser,
// seccompProfile_restricted}.go.
import type { Volume } from '../../../../generated/types/corev1.gen.ts';
import { v1 as since } from '../api.ts';
import { CAPABILITIES_BASELINE_ID, HOST_PATH_VOLUMES_ID, PROC_MOUNT_ID, procMountDefaultOnly } from './checks-baseline.ts';
import { SECCOMP_BASELINE_ID, explicitSeccompViolations, seccompTypeDetail } from './checks-baseline-profiles.ts';
import {
  ALLOWED, containers, forbid, inUserNamespace, isWindows, joinQuote, pluralize, sortedSet, visitContainers,
  type Check, type CheckPodFn,
} from './check.ts';

/** From v1.25 (with `since`) a Windows pod passes: the API refuses the field on Windows pods. */
const exceptWindows = (check: CheckPodFn): CheckPodFn => (meta, spec) => isWindows(spec) ? ALLOWED : check(meta, spec);
/** From v1.35 a pod in a user namespace passes. */
const exceptUserNamespace = (check: CheckPodFn): CheckPodFn => (meta, spec) => inUserNamespace(spec) ? ALLOWED : check(meta, spec);

const allowPrivilegeEscalation: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(c.name); });
  return bad.length === 0 ? ALLOWED
    : forbid('allowPrivilegeEscalation != false', `${containers(bad)} must set securityContext.allowPrivilegeEscalation=false`);
};

const capabilitiesRestricted: CheckPodFn = (_meta, spec) => {
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps: string[] = [];
  visitContainers(spec, (c) => {
    const capabilities = c.securityContext?.capabilities;
    if (capabilities == null) { missingDropAll.push(c.name); return; }
    if (!(capabilities.drop ?? []).includes('ALL')) missingDropAll.push(c.name);
    const added = (capabilities.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length > 0) { adding.push(c.name); caps.push(...added); }
  });
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containers(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0) details.push(`${containers(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
  return details.length === 0 ? ALLOWED : forbid('unrestricted capabilities', details.join('; '));
};

const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
/** The restricted sources in the order kube names the first one a volume sets. */
const NAMED_VOLUME_SOURCES = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd',
  'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk',
  'portworxVolume', 'scaleIO', 'storageos'];

const restrictedVolumes: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const volume of spec.volumes ?? []) {
    const v = volume as Readonly<Volume> & Readonly<Record<string, unknown>>;
    if (ALLOWED_VOLUME_SOURCES.some((s) => v[s] != null)) continue;
    bad.push(volume.name);
    types.push(NAMED_VOLUME_SOURCES.find((s) => v[s] != null) ?? 'unknown');
  }
  if (bad.length === 0) return ALLOWED;
  const list = sortedSet(types);
  return forbid('restricted volume types', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ` +
    `${pluralize('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}`);
};

const runAsNonRoot: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const pod = spec.securityContext?.runAsNonRoot;
  if (pod != null) {
    if (pod) podNonRoot = true;
    else setters.push('pod');
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const v = c.securityContext?.runAsNonRoot;
    if (v != null) { if (!v) explicit.push(c.name); } else if (!podNonRoot) implicit.push(c.name);
  });
  if (explicit.length > 0) setters.push(containers(explicit));
  if (setters.length > 0) return forbid('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicit.length > 0) return forbid('runAsNonRoot != true', `pod or ${containers(implicit)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
};

const runAsUser: CheckPodFn = (_meta, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.runAsUser === 0) bad.push(c.name); });
  if (bad.length > 0) setters.push(containers(bad));
  return setters.length === 0 ? ALLOWED : forbid('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`);
};

const seccompRestricted: CheckPodFn = (_meta, spec) => {
  const { setters, values, podValid } = explicitSeccompViolations(spec);
  if (setters.length > 0) return forbid('seccompProfile', seccompTypeDetail(setters, values));
  const implicit: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.seccompProfile == null && !podValid) implicit.push(c.name); });
  return implicit.length === 0 ? ALLOWED
    : forbid('seccompProfile', `pod or ${containers(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
};

export const RESTRICTED_CHECKS: readonly Check[] = [
  {
    id: 'allowPrivilegeEscalation', level: 'restricted', versions: [
      { minimumVersion: since(8), checkPod: allowPrivilegeEscalation },
      { minimumVersion: since(25), checkPod: exceptWindows(allowPrivilegeEscalation) },
    ],
  },
  {
    id: 'capabilities_restricted', level: 'restricted', versions: [
      { minimumVersion: since(22), checkPod: capabilitiesRestricted, overrides: [CAPABILITIES_BASELINE_ID] },
      { minimumVersion: since(25), checkPod: exceptWindows(capabilitiesRestricted), overrides: [CAPABILITIES_BASELINE_ID] },
    ],
  },
  // Unlike baseline's, no exception for user namespaces.
  { id: 'procMount_restricted', level: 'restricted', versions: [{ minimumVersion: since(35), checkPod: procMountDefaultOnly, overrides: [PROC_MOUNT_ID] }] },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumVersion: since(0), checkPod: restrictedVolumes, overrides: [HOST_PATH_VOLUMES_ID] }] },
  {
    id: 'runAsNonRoot', level: 'restricted', versions: [
      { minimumVersion: since(0), checkPod: runAsNonRoot },
      { minimumVersion: since(35), checkPod: exceptUserNamespace(runAsNonRoot) },
    ],
  },
  {
    id: 'runAsUser', level: 'restricted', versions: [
      { minimumVersion: since(23), checkPod: runAsUser },
      { minimumVersion: since(35), checkPod: exceptUserNamespace(runAsUser) },
    ],
  },
  {
    id: 'seccompProfile_restricted', level: 'restricted', versions: [
      { minimumVersion: since(19), checkPod: seccompRestricted, overrides: [SECCOMP_BASELINE_ID] },
      { minimumVersion: since(25), checkPod: exceptWindows(seccompRestricted), overrides: [SECCOMP_BASELINE_ID] },
    ],
  },
];
