// The baseline checks on host access and privileges: privileged containers, host namespaces,
// hostPath volumes, host ports, probe and lifecycle hosts, added capabilities, /proc mounts and
// Windows host processes.
// Counterpart of k8s.io/pod-security-admission/policy/check_{privileged,hostNamespaces,
// hostPathVolumes,hostPorts,hostProbesAndhostLifecycle,capabilities_baseline,procMount_baseline,
// windowsHostProcess}.go.
import type { LifecycleHandler, Probe } from '../../../../generated/types/corev1.gen.ts';
import { v1 as since } from '../api.ts';
import {
  ALLOWED, containers, forbid, inUserNamespace, joinQuote, pluralize, sortedSet, visitContainers,
  type Check, type CheckPodFn,
} from './check.ts';

const privileged: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.privileged === true) bad.push(c.name); });
  return bad.length === 0 ? ALLOWED : forbid('privileged', `${containers(bad)} must not set securityContext.privileged=true`);
};

const hostNamespaces: CheckPodFn = (_meta, spec) => {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push('hostNetwork=true');
  if (spec.hostPID === true) set.push('hostPID=true');
  if (spec.hostIPC === true) set.push('hostIPC=true');
  return set.length === 0 ? ALLOWED : forbid('host namespaces', set.join(', '));
};

export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

const hostPathVolumes: CheckPodFn = (_meta, spec) => {
  const bad = (spec.volumes ?? []).filter((v) => v.hostPath != null).map((v) => v.name);
  return bad.length === 0 ? ALLOWED : forbid('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`);
};

const hostPorts: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    const used = (c.ports ?? []).filter((p) => (p.hostPort ?? 0) !== 0).map((p) => String(p.hostPort));
    if (used.length > 0) { bad.push(c.name); ports.push(...used); }
  });
  if (bad.length === 0) return ALLOWED;
  const list = sortedSet(ports);
  return forbid('hostPort', `${containers(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`);
};

function probeHosts(p: Readonly<Probe> | Readonly<LifecycleHandler> | undefined): string[] {
  if (p == null) return [];
  return [p.httpGet?.host, p.tcpSocket?.host].filter((h): h is string => h !== undefined && h !== null && h !== '');
}

const hostProbesAndHostLifecycle: CheckPodFn = (_meta, spec) => {
  const bad = new Set<string>();
  const hosts: string[] = [];
  visitContainers(spec, (c) => {
    const found = [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop].flatMap(probeHosts);
    if (found.length > 0) { bad.add(c.name); hosts.push(...found); }
  });
  if (bad.size === 0) return ALLOWED;
  const names = sortedSet(bad);
  const list = sortedSet(hosts);
  return forbid('probe or lifecycle host', `${containers(names)} ${pluralize('uses', 'use', names.length)} ` +
    `${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', list.length)} ${joinQuote(list)}`);
};

export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';
const DEFAULT_CAPABILITIES: ReadonlySet<string> = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  visitContainers(spec, (c) => {
    const added = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !DEFAULT_CAPABILITIES.has(cap));
    if (added.length > 0) { bad.push(c.name); caps.push(...added); }
  });
  return bad.length === 0 ? ALLOWED
    : forbid('non-default capabilities', `${containers(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`);
};

export const PROC_MOUNT_ID = 'procMount';

/** Shared with the restricted procMount check, which applies it even in a user namespace. */
export const procMountDefaultOnly: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (c) => {
    const pm = c.securityContext?.procMount;
    if (pm != null && pm !== 'Default') { bad.push(c.name); types.push(pm); }
  });
  return bad.length === 0 ? ALLOWED : forbid('procMount', `${containers(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`);
};

const windowsHostProcess: CheckPodFn = (_meta, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.windowsOptions?.hostProcess === true) bad.push(c.name); });
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  if (bad.length > 0) setters.push(containers(bad));
  return setters.length === 0 ? ALLOWED
    : forbid('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
};

export const BASELINE_HOST_CHECKS: readonly Check[] = [
  { id: 'privileged', level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: privileged }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: hostNamespaces }] },
  { id: HOST_PATH_VOLUMES_ID, level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: hostPorts }] },
  { id: 'hostProbesAndHostLifecycle', level: 'baseline', versions: [{ minimumVersion: since(34), checkPod: hostProbesAndHostLifecycle }] },
  { id: CAPABILITIES_BASELINE_ID, level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: capabilitiesBaseline }] },
  {
    id: PROC_MOUNT_ID, level: 'baseline', versions: [
      { minimumVersion: since(0), checkPod: procMountDefaultOnly },
      // From v1.35 a pod in a user namespace may unmask /proc.
      { minimumVersion: since(35), checkPod: (meta, spec) => inUserNamespace(spec) ? ALLOWED : procMountDefaultOnly(meta, spec) },
    ],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: windowsHostProcess }] },
];
