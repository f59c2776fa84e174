// The baseline checks on security profiles and kernel settings: AppArmor, SELinux, seccomp and
// sysctls, each allowing only values that keep the runtime's default confinement.
// Counterpart of k8s.io/pod-security-admission/policy/check_{appArmorProfile,seLinuxOptions,
// seccompProfile_baseline,sysctls}.go.
import type { SELinuxOptions } from '../../../../generated/types/corev1.gen.ts';
import { goQuote } from '../../../../apimachinery/goformat/index.ts';
import { v1 as since } from '../api.ts';
import { ALLOWED, containers, forbid, joinQuote, pluralize, sortedSet, visitContainers, type Check, type CheckPodFn } from './check.ts';

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const allowedAppArmorAnnotation = (v: string): boolean => v === '' || v === 'runtime/default' || v.startsWith('localhost/');
const allowedAppArmorType = (t: string | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';

const appArmorProfile: CheckPodFn = (meta, spec) => {
  const setters: string[] = [];
  const values: string[] = [];
  const podType = spec.securityContext?.appArmorProfile?.type;
  if (spec.securityContext?.appArmorProfile != null && !allowedAppArmorType(podType)) { setters.push('pod'); values.push(podType ?? ''); }
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.appArmorProfile;
    if (p != null && !allowedAppArmorType(p.type)) { bad.push(c.name); values.push(p.type ?? ''); }
  });
  if (bad.length > 0) setters.push(containers(bad));
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(([k, v]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(v))
    .map(([k, v]) => `${k}=${goQuote(v)}`).sort();
  const list = [...sortedSet(values), ...annotations];
  if (annotations.length > 0) setters.push(pluralize('annotation', 'annotations', annotations.length));
  if (setters.length === 0) return ALLOWED;
  return forbid(pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', list.length),
    `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(list)}`);
};

const SELINUX_TYPES_1_0 = ['', 'container_t', 'container_init_t', 'container_kvm_t'];
const SELINUX_TYPES_1_31 = [...SELINUX_TYPES_1_0, 'container_engine_t'];

function seLinuxOptions(allowedTypes: readonly string[]): CheckPodFn {
  return (_meta, spec) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (o: Readonly<SELinuxOptions>): boolean => {
      let ok = true;
      const t = o.type ?? '';
      if (!allowedTypes.includes(t)) { ok = false; badTypes.push(t); }
      if ((o.user ?? '') !== '') { ok = false; setUser = true; }
      if ((o.role ?? '') !== '') { ok = false; setRole = true; }
      return ok;
    };
    const setters: string[] = [];
    const podOpts = spec.securityContext?.seLinuxOptions;
    if (podOpts != null && !valid(podOpts)) setters.push('pod');
    const bad: string[] = [];
    visitContainers(spec, (c) => {
      const o = c.securityContext?.seLinuxOptions;
      if (o != null && !valid(o)) bad.push(c.name);
    });
    if (bad.length > 0) setters.push(containers(bad));
    if (setters.length === 0) return ALLOWED;
    const data: string[] = [];
    const types = sortedSet(badTypes);
    if (types.length > 0) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
    return forbid('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
  };
}

export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
export const validSeccompType = (t: string | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';
const validSeccompAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

/** Before v1.19 seccomp was set by the alpha annotations. */
const seccompBaseline1_0: CheckPodFn = (meta, spec) => {
  const annotations = meta.annotations ?? {};
  const bad: string[] = [];
  const check = (key: string): void => {
    const v = annotations[key];
    if (v !== undefined && !validSeccompAnnotation(v)) bad.push(`${key}=${goQuote(v)}`);
  };
  check(SECCOMP_POD_ANNOTATION);
  visitContainers(spec, (c) => check(SECCOMP_CONTAINER_ANNOTATION_PREFIX + c.name));
  const list = sortedSet(bad);
  return list.length === 0 ? ALLOWED
    : forbid('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`);
};

/** The pod and containers that set an invalid seccompProfile.type, and the values they set. */
export function explicitSeccompViolations(spec: Parameters<CheckPodFn>[1]): { setters: string[]; values: string[]; podValid: boolean } {
  const setters: string[] = [];
  const values: string[] = [];
  let podValid = false;
  const pod = spec.securityContext?.seccompProfile;
  if (pod != null) {
    if (validSeccompType(pod.type)) podValid = true;
    else { setters.push('pod'); values.push(pod.type ?? ''); }
  }
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (p != null && !validSeccompType(p.type)) { bad.push(c.name); values.push(p.type ?? ''); }
  });
  if (bad.length > 0) setters.push(containers(bad));
  return { setters, values: sortedSet(values), podValid };
}

export const seccompTypeDetail = (setters: readonly string[], values: readonly string[]): string =>
  `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`;

const seccompBaseline1_19: CheckPodFn = (_meta, spec) => {
  const { setters, values } = explicitSeccompViolations(spec);
  return setters.length === 0 ? ALLOWED : forbid('seccompProfile', seccompTypeDetail(setters, values));
};

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(allowed: readonly string[]): CheckPodFn {
  return (_meta, spec) => {
    const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name).filter((n) => !allowed.includes(n));
    return bad.length === 0 ? ALLOWED : forbid('forbidden sysctls', bad.join(', '));
  };
}

export const BASELINE_PROFILE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumVersion: since(0), checkPod: appArmorProfile }] },
  {
    id: 'seLinuxOptions', level: 'baseline', versions: [
      { minimumVersion: since(0), checkPod: seLinuxOptions(SELINUX_TYPES_1_0) },
      { minimumVersion: since(31), checkPod: seLinuxOptions(SELINUX_TYPES_1_31) },
    ],
  },
  {
    id: SECCOMP_BASELINE_ID, level: 'baseline', versions: [
      { minimumVersion: since(0), checkPod: seccompBaseline1_0 },
      { minimumVersion: since(19), checkPod: seccompBaseline1_19 },
    ],
  },
  {
    id: 'sysctls', level: 'baseline', versions: [
      { minimumVersion: since(0), checkPod: sysctls(SYSCTLS_1_0) },
      { minimumVersion: since(27), checkPod: sysctls(SYSCTLS_1_27) },
      { minimumVersion: since(29), checkPod: sysctls(SYSCTLS_1_29) },
      { minimumVersion: since(32), checkPod: sysctls(SYSCTLS_1_32) },
    ],
  },
];
