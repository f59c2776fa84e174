// The PodSecurity corpus, part 1: pods checked by every check of baseline and restricted, at
// latest and at the policy versions where a check starts or changes, in enforce, audit and warn
// namespaces. Namespaces are made once (setup); each case creates one pod. Part 2
// (pod-security-corpus-namespaces.ts) has namespace labels, workloads and updates.
// No Go counterpart: kube's own fixtures (pod-security-admission/test) informed the cases.
import { post, type ValidationCase } from './validation-differential.ts';
import type { RawRequest } from './https-client.ts';

type Obj = Record<string, unknown>;
type Spec = Obj & { containers: Obj[] };

export const nsURL = '/api/v1/namespaces';
export const podsURL = (ns: string): string => `/api/v1/namespaces/${ns}/pods`;
/**
 * A namespace and its default service account: the oracle runs no controller that makes it, and
 * the ServiceAccount plugin refuses pods without it (kapi's own controller may win the race: 409).
 */
export const namespace = (name: string, labels: Record<string, string>): RawRequest[] => [
  post(nsURL, { metadata: { name, labels } }),
  post(`${nsURL}/${name}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }),
];

/** A container that passes restricted. */
export const goodContainer = (name = 'c'): Obj => ({
  name, image: 'busybox',
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
});
export const goodSpec = (): Spec => ({ containers: [goodContainer()] });
export const pod = (name: string, spec: Obj, metadata: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec });

const sc = (spec: Spec, i = 0): Obj => {
  const c = spec.containers[i] as Obj;
  return (c['securityContext'] ??= {}) as Obj;
};
const podSC = (spec: Spec): Obj => (spec['securityContext'] ??= {}) as Obj;

/** A change to the restricted pod that breaks one rule (or more), and optional pod metadata. */
interface Violation { readonly name: string; readonly change: (s: Spec) => void; readonly metadata?: Obj }

const VIOLATIONS: readonly Violation[] = [
  { name: 'privileged container', change: (s) => { const c = sc(s); c['privileged'] = true; delete c['allowPrivilegeEscalation']; } },
  { name: 'hostNetwork', change: (s) => { s['hostNetwork'] = true; } },
  { name: 'hostPID and hostIPC', change: (s) => { s['hostPID'] = true; s['hostIPC'] = true; } },
  { name: 'hostPath volumes', change: (s) => { s['volumes'] = [{ name: 'h1', hostPath: { path: '/a' } }, { name: 'h2', hostPath: { path: '/b' } }]; } },
  { name: 'hostPorts', change: (s) => { (s.containers[0] as Obj)['ports'] = [{ containerPort: 80, hostPort: 9090 }, { containerPort: 81, hostPort: 10000 }]; } },
  { name: 'probe host', change: (s) => { (s.containers[0] as Obj)['livenessProbe'] = { httpGet: { host: 'example.com', port: 80 } }; } },
  { name: 'lifecycle host', change: (s) => { (s.containers[0] as Obj)['lifecycle'] = { preStop: { tcpSocket: { host: '10.0.0.1', port: 80 } }, postStart: { httpGet: { host: 'a.example', port: 80 } } }; } },
  { name: 'capability NET_RAW', change: (s) => { sc(s)['capabilities'] = { drop: ['ALL'], add: ['NET_RAW'] }; } },
  { name: 'capabilities SYS_ADMIN and CHOWN', change: (s) => { sc(s)['capabilities'] = { drop: ['ALL'], add: ['SYS_ADMIN', 'CHOWN'] }; } },
  { name: 'capability NET_BIND_SERVICE', change: (s) => { sc(s)['capabilities'] = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }; } },
  { name: 'no capabilities drop', change: (s) => { delete sc(s)['capabilities']; } },
  { name: 'procMount Unmasked', change: (s) => { sc(s)['procMount'] = 'Unmasked'; } },
  { name: 'procMount Unmasked in a user namespace', change: (s) => { sc(s)['procMount'] = 'Unmasked'; s['hostUsers'] = false; } },
  { name: 'pod AppArmor Unconfined', change: (s) => { podSC(s)['appArmorProfile'] = { type: 'Unconfined' }; } },
  { name: 'container AppArmor Unconfined', change: (s) => { sc(s)['appArmorProfile'] = { type: 'Unconfined' }; } },
  { name: 'AppArmor annotation unconfined', change: () => {}, metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } } },
  { name: 'SELinux type spc_t', change: (s) => { sc(s)['seLinuxOptions'] = { type: 'spc_t' }; } },
  { name: 'SELinux type container_engine_t', change: (s) => { sc(s)['seLinuxOptions'] = { type: 'container_engine_t' }; } },
  { name: 'SELinux user and role on the pod', change: (s) => { podSC(s)['seLinuxOptions'] = { user: 'u', role: 'r' }; } },
  { name: 'pod seccomp Unconfined', change: (s) => { delete sc(s)['seccompProfile']; podSC(s)['seccompProfile'] = { type: 'Unconfined' }; } },
  { name: 'container seccomp Unconfined', change: (s) => { sc(s)['seccompProfile'] = { type: 'Unconfined' }; } },
  { name: 'no seccomp', change: (s) => { delete sc(s)['seccompProfile']; } },
  { name: 'seccomp on the pod only', change: (s) => { delete sc(s)['seccompProfile']; podSC(s)['seccompProfile'] = { type: 'RuntimeDefault' }; } },
  { name: 'seccomp alpha annotation', change: () => {}, metadata: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } } },
  { name: 'sysctl kernel.msgmax', change: (s) => { podSC(s)['sysctls'] = [{ name: 'kernel.msgmax', value: '1' }, { name: 'net.ipv4.tcp_rmem', value: '4096 87380 16777216' }]; } },
  { name: 'sysctls of v1.27 to v1.32', change: (s) => { podSC(s)['sysctls'] = [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1000' }, { name: 'net.ipv4.tcp_keepalive_time', value: '100' }, { name: 'net.ipv4.tcp_wmem', value: '4096 87380 16777216' }]; } },
  { name: 'allowPrivilegeEscalation unset', change: (s) => { delete sc(s)['allowPrivilegeEscalation']; } },
  { name: 'allowPrivilegeEscalation true', change: (s) => { sc(s)['allowPrivilegeEscalation'] = true; } },
  { name: 'runAsNonRoot false', change: (s) => { sc(s)['runAsNonRoot'] = false; podSC(s)['runAsNonRoot'] = false; } },
  { name: 'runAsNonRoot unset', change: (s) => { delete sc(s)['runAsNonRoot']; } },
  { name: 'runAsNonRoot unset in a user namespace', change: (s) => { delete sc(s)['runAsNonRoot']; s['hostUsers'] = false; } },
  { name: 'runAsUser 0', change: (s) => { sc(s)['runAsUser'] = 0; podSC(s)['runAsUser'] = 0; } },
  { name: 'runAsUser 0 in a user namespace', change: (s) => { sc(s)['runAsUser'] = 0; s['hostUsers'] = false; } },
  { name: 'restricted volume types', change: (s) => { s['volumes'] = [{ name: 'n', nfs: { server: 's', path: '/p' } }, { name: 'i', iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } }, { name: 'e', emptyDir: {} }]; } },
  { name: 'allowed volume types', change: (s) => { s['volumes'] = [{ name: 'e', emptyDir: {} }, { name: 'cm', configMap: { name: 'x' } }, { name: 's', secret: { secretName: 'x' } }, { name: 'p', persistentVolumeClaim: { claimName: 'x' } }, { name: 'd', downwardAPI: {} }, { name: 'pr', projected: { sources: [] } }]; } },
  {
    name: 'two containers and an init container, all bare', change: (s) => {
      s.containers = [{ name: 'a', image: 'busybox' }, { name: 'b', image: 'busybox' }];
      s['initContainers'] = [{ name: 'init', image: 'busybox' }];
    },
  },
  {
    name: 'windows pod without Linux fields', change: (s) => {
      s['os'] = { name: 'windows' };
      s.containers = [{ name: 'c', image: 'busybox', securityContext: { runAsNonRoot: true } }];
    },
  },
  { name: 'everything at once', change: (s) => {
    s['hostNetwork'] = true; s['hostPID'] = true;
    s.containers = [{ name: 'a', image: 'busybox', securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] }, runAsUser: 0 }, ports: [{ containerPort: 8080, hostPort: 8080 }] }];
    s['volumes'] = [{ name: 'h', hostPath: { path: '/' } }];
  } },
];

const LEVELS = ['baseline', 'restricted'] as const;
/** The enforce versions the version-dependent cases use: where checks start or change, and a future one. */
const VERSIONS = ['v1.0', 'v1.18', 'v1.22', 'v1.24', 'v1.25', 'v1.30', 'v1.31', 'v1.33', 'v1.34', 'v1.35', 'v1.99'];
/** The violations whose verdict depends on the version. */
const VERSIONED = ['no seccomp', 'no capabilities drop', 'runAsUser 0', 'SELinux type container_engine_t', 'sysctls of v1.27 to v1.32',
  'probe host', 'procMount Unmasked in a user namespace', 'runAsNonRoot unset in a user namespace', 'runAsUser 0 in a user namespace',
  'windows pod without Linux fields', 'allowPrivilegeEscalation unset', 'seccomp alpha annotation', 'capability NET_RAW'];

const enforceNS = (level: string, version: string): string => `psa-${level}-${version.replace('.', '-')}`;

/** Namespaces with only a warn or audit level, or enforce and warn at different levels. */
export const MODE_NAMESPACES: Readonly<Record<string, Record<string, string>>> = {
  'psa-warn-restricted': { 'pod-security.kubernetes.io/warn': 'restricted' },
  'psa-warn-baseline-v1-22': { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.22' },
  'psa-audit-restricted': { 'pod-security.kubernetes.io/audit': 'restricted' },
  'psa-enforce-baseline-warn-restricted': { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' },
  'psa-enforce-restricted-warn-privileged': { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'privileged' },
  'psa-enforce-restricted-v1-23-only': { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.23' },
  'psa-enforce-version-only': { 'pod-security.kubernetes.io/enforce-version': 'v1.20' },
  'psa-enforce-privileged': { 'pod-security.kubernetes.io/enforce': 'privileged', 'pod-security.kubernetes.io/audit': 'baseline' },
};

export function podSecuritySetup(): RawRequest[] {
  const out: RawRequest[] = [];
  for (const level of LEVELS) {
    out.push(...namespace(enforceNS(level, 'latest'), { 'pod-security.kubernetes.io/enforce': level }));
    for (const v of VERSIONS) {
      out.push(...namespace(enforceNS(level, v), { 'pod-security.kubernetes.io/enforce': level, 'pod-security.kubernetes.io/enforce-version': v }));
    }
  }
  for (const [name, labels] of Object.entries(MODE_NAMESPACES)) out.push(...namespace(name, labels));
  return out;
}

const violating = (v: Violation): ((name: string) => Obj) => (name) => {
  const spec = goodSpec();
  v.change(spec);
  return pod(name, spec, v.metadata ?? {});
};

export const POD_CHECK_CASES: readonly ValidationCase[] = [
  ...LEVELS.flatMap((level) => [
    { name: `${level}:latest: a restricted pod`, requests: (n: string) => [post(podsURL(enforceNS(level, 'latest')), pod(n, goodSpec()))] },
    ...VIOLATIONS.map((v) => ({
      name: `${level}:latest: ${v.name}`, requests: (n: string) => [post(podsURL(enforceNS(level, 'latest')), violating(v)(n))],
    })),
  ]),
  ...LEVELS.flatMap((level) => VERSIONS.flatMap((version) => VIOLATIONS.filter((v) => VERSIONED.includes(v.name)).map((v) => ({
    name: `${level}:${version}: ${v.name}`, requests: (n: string) => [post(podsURL(enforceNS(level, version)), violating(v)(n))],
  })))),
  ...Object.keys(MODE_NAMESPACES).flatMap((ns) => ['privileged container', 'allowPrivilegeEscalation unset', 'runAsUser 0'].map((vn) => ({
    name: `${ns}: ${vn}`,
    requests: (n: string) => [post(podsURL(ns), violating(VIOLATIONS.find((v) => v.name === vn) as Violation)(n))],
  }))),
  {
    name: 'restricted:latest: dry run is refused the same',
    requests: (n: string) => [post(`${podsURL(enforceNS('restricted', 'latest'))}?dryRun=All`, pod(n, { containers: [{ name: 'c', image: 'busybox' }] }))],
  },

];
