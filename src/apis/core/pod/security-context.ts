// Security contexts: the pod's (validatePodSpecSecurityContext, validateSysctls, validateHostUsers,
// validateWindowsHostProcessPod) and each container's (ValidateSecurityContext), with the seccomp and
// AppArmor profile fields they share.
// Counterpart of pkg/apis/core/validation/validation.go (validatePodSpecSecurityContext).
import { forbidden, invalid, notSupported, required, tooLong, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { isValidGroupID, isValidUserID } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodSpec } from '../v1/types.ts';
import { goStruct, SECCOMP_PROFILE, SECURITY_CONTEXT } from './go-struct.ts';
import { validateLocalDescendingPath } from './volumes.ts';
import { bool, child, list, num, obj, objects, optStr, str, type Obj } from './spec-access.ts';

/** --allow-privileged (capabilities.AllowPrivileged); kube-apiserver's default is false. */
export const podSecurityPolicy = { allowPrivileged: false };

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function validateIDs(sc: Obj, p: FieldPath, keys: readonly ('runAsUser' | 'runAsGroup' | 'fsGroup')[]): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of keys) {
    const v = num(sc, k);
    if (v === undefined) continue;
    const msgs = k === 'runAsUser' ? isValidUserID(v) : isValidGroupID(v);
    for (const m of msgs) errs.push(invalid(p.child(k), v, m));
  }
  return errs;
}

function validateSeccompProfile(sc: Obj, p: FieldPath): FieldError[] {
  const sp = child(sc, 'seccompProfile');
  if (sp === undefined) return [];
  const errs: FieldError[] = [];
  const type = str(sp, 'type');
  if (type === '') errs.push(required(p.child('type'), 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(notSupported(p.child('type'), type, SECCOMP_TYPES));
  const local = optStr(sp, 'localhostProfile');
  if (type === 'Localhost') {
    if (local === undefined) errs.push(required(p.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(local, p.child('localhostProfile')));
  } else if (local !== undefined) {
    errs.push(invalid(p.child('localhostProfile'), goStruct(sp, SECCOMP_PROFILE), 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function validateAppArmorProfile(sc: Obj, p: FieldPath): FieldError[] {
  const ap = child(sc, 'appArmorProfile');
  if (ap === undefined) return [];
  const errs: FieldError[] = [];
  const type = str(ap, 'type');
  const local = optStr(ap, 'localhostProfile');
  const lp = p.child('localhostProfile');
  switch (type) {
    case 'Localhost':
      if (local === undefined) errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
      else {
        if (local.trim() !== local) errs.push(invalid(lp, local, 'must not be padded with whitespace'));
        else if (local === '') errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
        if (local.length > 4095) errs.push(tooLong(lp, '', 4095));
      }
      break;
    case 'RuntimeDefault': case 'Unconfined':
      if (local !== undefined) errs.push(invalid(lp, local, 'can only be set when AppArmor type is Localhost'));
      break;
    case '': errs.push(required(p.child('type'), 'type is required when appArmorProfile is set')); break;
    default: errs.push(notSupported(p.child('type'), type, APPARMOR_TYPES));
  }
  return errs;
}

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_FMT = `(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}`;
const SYSCTL_RE = new RegExp(`^${SYSCTL_FMT}$`);

/** The namespace of a namespaced sysctl (utilsysctl.GetNamespace), for the hostNetwork/hostIPC checks. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const n = name.replaceAll('/', '.');
  if (n.startsWith('net.')) return 'net';
  if (n.startsWith('kernel.shm') || n.startsWith('kernel.msg') || n.startsWith('fs.mqueue.') || n === 'kernel.sem') return 'ipc';
  return undefined;
}

function validateSysctls(spec: DeepReadonly<PodSpec>, sc: Obj, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(sc, 'sysctls').forEach((s, i) => {
    const np = p.index(i).child('name');
    const name = str(s, 'name');
    if (name === '') errs.push(required(np));
    else if (name.length > 253 || !SYSCTL_RE.test(name)) errs.push(invalid(np, name, `must have at most 253 characters and match regex ^${SYSCTL_FMT}$`));
    else if (names.has(name)) errs.push({ type: 'FieldValueDuplicate', field: String(np), badValue: name, detail: '' });
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') errs.push(invalid(np, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') errs.push(invalid(np, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  return errs;
}

function validateEnum(sc: Obj, key: string, valid: readonly string[], p: FieldPath): FieldError[] {
  const v = optStr(sc, key);
  return v !== undefined && !valid.includes(v) ? [notSupported(p.child(key), v, valid)] : [];
}

/** validatePodSpecSecurityContext; `p` is `spec`. */
export function validatePodSecurityContext(spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const sc = obj(spec.securityContext);
  if (sc === undefined) return [];
  const sp = p.child('securityContext');
  const errs = validateIDs(sc, sp, ['fsGroup', 'runAsUser', 'runAsGroup']);
  list(sc, 'supplementalGroups').forEach((g, i) => {
    if (typeof g === 'number') for (const m of isValidGroupID(g)) errs.push(invalid(sp.child('supplementalGroups').index(i), g, m));
  });
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(sp.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  errs.push(...validateSysctls(spec, sc, sp.child('sysctls')));
  errs.push(...validateEnum(sc, 'fsGroupChangePolicy', ['Always', 'OnRootMismatch'], sp));
  errs.push(...validateSeccompProfile(sc, sp.child('seccompProfile')));
  errs.push(...validateAppArmorProfile(sc, sp.child('appArmorProfile')));
  errs.push(...validateEnum(sc, 'supplementalGroupsPolicy', ['Merge', 'Strict'], sp));
  // SELinuxMount is off in v1.36: only Recursive (useOnlyRecursiveSELinuxChangePolicy)
  errs.push(...validateEnum(sc, 'seLinuxChangePolicy', ['Recursive'], sp));
  return errs;
}

/** ValidateSecurityContext of one container. */
export function validateContainerSecurityContext(raw: unknown, hostUsers: boolean, p: FieldPath): FieldError[] {
  const sc = obj(raw);
  if (sc === undefined) return [];
  const errs: FieldError[] = [];
  const privileged = bool(sc, 'privileged');
  if (privileged && !podSecurityPolicy.allowPrivileged) errs.push(forbidden(p.child('privileged'), 'disallowed by cluster policy'));
  errs.push(...validateIDs(sc, p, ['runAsUser', 'runAsGroup']));
  const proc = optStr(sc, 'procMount');
  if (proc !== undefined) {
    if (proc !== 'Default' && proc !== 'Unmasked') errs.push(notSupported(p.child('procMount'), proc, ['Default', 'Unmasked']));
    if (hostUsers && proc === 'Unmasked') errs.push(invalid(p.child('procMount'), proc, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfile(sc, p.child('seccompProfile')));
  if (sc['allowPrivilegeEscalation'] === false) {
    if (privileged) errs.push(invalid(p, goStruct(sc, SECURITY_CONTEXT), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of list(child(sc, 'capabilities'), 'add')) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(invalid(p, goStruct(sc, SECURITY_CONTEXT), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...validateAppArmorProfile(sc, p.child('appArmorProfile')));
  return errs;
}

/** Every container of the spec with its path (podshelper.VisitContainersWithPath order). */
export function containersWithPath(spec: DeepReadonly<PodSpec>, p: FieldPath): { c: Obj; path: FieldPath }[] {
  const out: { c: Obj; path: FieldPath }[] = [];
  for (const k of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    const cs = spec[k];
    (Array.isArray(cs) ? cs : []).forEach((c, i) => out.push({ c: obj(c) ?? {}, path: p.child(k).index(i) }));
  }
  return out;
}

/** validateWindowsHostProcessPod. */
export function validateWindowsHostProcessPod(spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const podWin = child(obj(spec.securityContext), 'windowsOptions');
  const podHP = typeof podWin?.['hostProcess'] === 'boolean' ? podWin['hostProcess'] : undefined;
  let count = 0;
  let hostProcess = 0;
  for (const { c, path } of containersWithPath(spec, p)) {
    count++;
    const win = child(child(c, 'securityContext'), 'windowsOptions');
    const hp = typeof win?.['hostProcess'] === 'boolean' ? win['hostProcess'] : undefined;
    if (podHP !== undefined && hp !== undefined && podHP !== hp) {
      errs.push(invalid(path.child('securityContext', 'windowsOptions', 'hostProcess'), hp,
        `pod hostProcess value must be identical if both are specified, was ${String(podHP)}`));
    }
    if (hp === true || (hp === undefined && podHP === true)) hostProcess++;
  }
  if (hostProcess > 0) {
    if (hostProcess !== count) errs.push(invalid(p, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    if (spec.hostNetwork !== true) errs.push(invalid(p.child('hostNetwork'), false, 'hostNetwork must be true if pod contains any hostProcess containers'));
    if (!podSecurityPolicy.allowPrivileged) errs.push(forbidden(p, 'hostProcess containers are disallowed by cluster policy'));
  }
  return errs;
}

/** validateHostUsers: a user namespace excludes the host's PID and IPC namespaces and block devices. */
export function validateHostUsers(spec: DeepReadonly<PodSpec>, p: FieldPath): FieldError[] {
  const s = spec as DeepReadonly<PodSpec> & { readonly hostUsers?: boolean };
  if (s.hostUsers !== false) return [];
  const errs: FieldError[] = [];
  // UserNamespacesHostNetworkSupport is off in v1.36
  if (spec.hostNetwork === true) errs.push(forbidden(p.child('hostNetwork'), 'when `hostUsers` is false'));
  // kube's paths, capitalised as Go names them
  if (spec.hostPID === true) errs.push(forbidden(p.child('HostPID'), 'when `hostUsers` is false'));
  if (spec.hostIPC === true) errs.push(forbidden(p.child('HostIPC'), 'when `hostUsers` is false'));
  for (const { c, path } of containersWithPath(spec, p)) {
    if (list(c, 'volumeDevices').length > 0) errs.push(forbidden(path.child('volumeDevices'), 'when `hostUsers` is false'));
  }
  return errs;
}

export const hasHostUsersFalse = (spec: DeepReadonly<PodSpec>): boolean =>
  (spec as DeepReadonly<PodSpec> & { readonly hostUsers?: boolean }).hostUsers === false;
