// Every check of baseline and restricted, at the versions where it starts or changes, with kube's
// wording (k8s.io/pod-security-admission/policy check_*.go): the detail a refusal prints.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from '../../../../generated/types/corev1.gen.ts';
import { parseLevel, parseVersion } from '../api.ts';
import type { PodMeta } from './check.ts';
import { aggregate, Evaluator, forbiddenDetail } from './registry.ts';

type Obj = Record<string, unknown>;
const good = (name = 'c'): Obj => ({
  name, image: 'i',
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
});
/** A restricted pod changed by `change`. */
function podWith(change: (spec: Obj & { containers: Obj[] }, sc: Obj) => void): PodSpec {
  const spec = { containers: [good()] };
  change(spec, (spec.containers[0] as { securityContext: Obj }).securityContext);
  return spec as unknown as PodSpec;
}

interface Case { readonly name: string; readonly at: string; readonly spec: PodSpec; readonly meta?: PodMeta; readonly want: string }

const evaluator = new Evaluator();
const detail = (at: string, spec: PodSpec, meta: PodMeta = {}): string => {
  const [level, version] = at.split(':');
  const r = aggregate(evaluator.evaluatePod({ level: parseLevel(level ?? '').level, version: parseVersion(version ?? '').version }, meta, spec));
  return r.allowed ? '' : forbiddenDetail(r);
};

const CASES: readonly Case[] = [
  { name: 'a restricted pod passes restricted', at: 'restricted:latest', spec: podWith(() => {}), want: '' },
  { name: 'privileged', at: 'baseline:latest', spec: podWith((_s, sc) => { sc['privileged'] = true; }), want: 'privileged (container "c" must not set securityContext.privileged=true)' },
  { name: 'host namespaces', at: 'baseline:latest', spec: podWith((s) => { s['hostNetwork'] = true; s['hostIPC'] = true; }), want: 'host namespaces (hostNetwork=true, hostIPC=true)' },
  { name: 'one hostPath volume', at: 'baseline:latest', spec: podWith((s) => { s['volumes'] = [{ name: 'v', hostPath: { path: '/' } }]; }), want: 'hostPath volumes (volume "v")' },
  { name: 'hostPath under restricted is a restricted volume type', at: 'restricted:latest', spec: podWith((s) => { s['volumes'] = [{ name: 'v', hostPath: { path: '/' } }]; }), want: 'restricted volume types (volume "v" uses restricted volume type "hostPath")' },
  {
    name: 'host ports sorted as strings', at: 'baseline:latest',
    spec: podWith((s) => { s.containers = [{ ...good('a'), ports: [{ containerPort: 1, hostPort: 9090 }] }, { ...good('b'), ports: [{ containerPort: 2, hostPort: 10000 }] }]; }),
    want: 'hostPort (containers "a", "b" use hostPorts 10000, 9090)',
  },
  { name: 'probe host before v1.34 passes', at: 'baseline:v1.33', spec: podWith((s) => { (s.containers[0] as Obj)['readinessProbe'] = { tcpSocket: { host: 'h', port: 1 } }; }), want: '' },
  { name: 'probe host from v1.34', at: 'baseline:v1.34', spec: podWith((s) => { (s.containers[0] as Obj)['readinessProbe'] = { tcpSocket: { host: 'h', port: 1 } }; }), want: 'probe or lifecycle host (container "c" uses probe or lifecycle host "h")' },
  { name: 'non-default capabilities', at: 'baseline:latest', spec: podWith((_s, sc) => { sc['capabilities'] = { add: ['SYS_TIME', 'NET_RAW', 'CHOWN', 'NET_RAW'] }; }), want: 'non-default capabilities (container "c" must not include "NET_RAW", "SYS_TIME" in securityContext.capabilities.add)' },
  { name: 'restricted capabilities replace baseline ones', at: 'restricted:latest', spec: podWith((_s, sc) => { sc['capabilities'] = { add: ['SYS_TIME'] }; }), want: 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_TIME" in securityContext.capabilities.add)' },
  { name: 'restricted capabilities before v1.22 are baseline ones', at: 'restricted:v1.21', spec: podWith((_s, sc) => { sc['capabilities'] = { add: ['SYS_TIME'] }; }), want: 'non-default capabilities (container "c" must not include "SYS_TIME" in securityContext.capabilities.add)' },
  { name: 'procMount', at: 'baseline:latest', spec: podWith((_s, sc) => { sc['procMount'] = 'Unmasked'; }), want: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")' },
  { name: 'procMount in a user namespace passes baseline from v1.35', at: 'baseline:v1.35', spec: podWith((s, sc) => { sc['procMount'] = 'Unmasked'; s['hostUsers'] = false; }), want: '' },
  { name: 'procMount in a user namespace fails baseline v1.34', at: 'baseline:v1.34', spec: podWith((s, sc) => { sc['procMount'] = 'Unmasked'; s['hostUsers'] = false; }), want: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")' },
  { name: 'procMount in a user namespace still fails restricted', at: 'restricted:latest', spec: podWith((s, sc) => { sc['procMount'] = 'Unmasked'; s['hostUsers'] = false; }), want: 'procMount (container "c" must not set securityContext.procMount to "Unmasked")' },
  { name: 'hostProcess on pod and container', at: 'baseline:latest', spec: podWith((s, sc) => { sc['windowsOptions'] = { hostProcess: true }; s['securityContext'] = { windowsOptions: { hostProcess: true } }; }), want: 'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)' },
  {
    name: 'AppArmor fields and annotations', at: 'baseline:latest',
    spec: podWith((s, sc) => { sc['appArmorProfile'] = { type: 'Unconfined' }; s['securityContext'] = { appArmorProfile: { type: 'Unconfined' } }; }),
    meta: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/d': 'localhost/x' } },
    want: 'forbidden AppArmor profiles (pod and container "c" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c="unconfined"")',
  },
  { name: 'SELinux', at: 'baseline:latest', spec: podWith((s, sc) => { sc['seLinuxOptions'] = { type: 'spc_t', role: 'r' }; s['securityContext'] = { seLinuxOptions: { user: 'u' } }; }), want: 'seLinuxOptions (pod and container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set; role may not be set)' },
  { name: 'SELinux container_engine_t before v1.31', at: 'baseline:v1.30', spec: podWith((_s, sc) => { sc['seLinuxOptions'] = { type: 'container_engine_t' }; }), want: 'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "container_engine_t")' },
  { name: 'SELinux container_engine_t from v1.31', at: 'baseline:v1.31', spec: podWith((_s, sc) => { sc['seLinuxOptions'] = { type: 'container_engine_t' }; }), want: '' },
  { name: 'seccomp Unconfined', at: 'baseline:latest', spec: podWith((s, sc) => { sc['seccompProfile'] = { type: 'Unconfined' }; s['securityContext'] = { seccompProfile: { type: 'Unconfined' } }; }), want: 'seccompProfile (pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined")' },
  { name: 'seccomp annotations before v1.19', at: 'baseline:v1.18', spec: podWith(() => {}), meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.seccomp.security.alpha.kubernetes.io/c': 'docker/default' } }, want: 'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")' },
  { name: 'seccomp annotations are ignored from v1.19', at: 'baseline:v1.19', spec: podWith(() => {}), meta: { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }, want: '' },
  { name: 'seccomp missing', at: 'restricted:latest', spec: podWith((_s, sc) => { delete sc['seccompProfile']; }), want: 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")' },
  { name: 'seccomp on the pod covers the containers', at: 'restricted:latest', spec: podWith((s, sc) => { delete sc['seccompProfile']; s['securityContext'] = { seccompProfile: { type: 'Localhost', localhostProfile: 'p' } }; }), want: '' },
  { name: 'seccomp is not required before v1.19', at: 'restricted:v1.18', spec: podWith((_s, sc) => { delete sc['seccompProfile']; }), want: '' },
  { name: 'sysctls', at: 'baseline:v1.31', spec: podWith((s) => { s['securityContext'] = { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '1' }, { name: 'a.b', value: '1' }, { name: 'kernel.shm_rmid_forced', value: '1' }] }; }), want: 'forbidden sysctls (net.ipv4.tcp_rmem, a.b)' },
  { name: 'sysctls of v1.32', at: 'baseline:v1.32', spec: podWith((s) => { s['securityContext'] = { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '1' }] }; }), want: '' },
  { name: 'ip_local_reserved_ports before v1.27', at: 'baseline:v1.26', spec: podWith((s) => { s['securityContext'] = { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }] }; }), want: 'forbidden sysctls (net.ipv4.ip_local_reserved_ports)' },
  { name: 'allowPrivilegeEscalation', at: 'restricted:latest', spec: podWith((s) => { s.containers = [{ name: 'a', image: 'i' }, { name: 'b', image: 'i' }]; s['securityContext'] = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }; }), want: 'allowPrivilegeEscalation != false (containers "a", "b" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (containers "a", "b" must set securityContext.capabilities.drop=["ALL"])' },
  { name: 'allowPrivilegeEscalation is not required before v1.8', at: 'restricted:v1.7', spec: podWith((_s, sc) => { delete sc['allowPrivilegeEscalation']; }), want: '' },
  { name: 'runAsNonRoot false on pod and container', at: 'restricted:latest', spec: podWith((s, sc) => { sc['runAsNonRoot'] = false; s['securityContext'] = { runAsNonRoot: false }; }), want: 'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)' },
  { name: 'runAsNonRoot unset', at: 'restricted:latest', spec: podWith((_s, sc) => { delete sc['runAsNonRoot']; }), want: 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)' },
  { name: 'runAsNonRoot unset in a user namespace from v1.35', at: 'restricted:v1.35', spec: podWith((s, sc) => { delete sc['runAsNonRoot']; s['hostUsers'] = false; }), want: '' },
  { name: 'runAsUser 0', at: 'restricted:latest', spec: podWith((s, sc) => { sc['runAsUser'] = 0; s['securityContext'] = { runAsUser: 0 }; }), want: 'runAsUser=0 (pod and container "c" must not set runAsUser=0)' },
  { name: 'runAsUser 0 before v1.23', at: 'restricted:v1.22', spec: podWith((_s, sc) => { sc['runAsUser'] = 0; }), want: '' },
  { name: 'restricted volume types', at: 'restricted:latest', spec: podWith((s) => { s['volumes'] = [{ name: 'a', nfs: {} }, { name: 'b', gitRepo: {} }, { name: 'c', nfs: {} }, { name: 'd', csi: { driver: 'x' } }]; }), want: 'restricted volume types (volumes "a", "b", "c" use restricted volume types "gitRepo", "nfs")' },
  { name: 'windows pods skip Linux-only checks from v1.25', at: 'restricted:latest', spec: { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'c', image: 'i' }] }, want: '' },
  { name: 'windows pods before v1.25', at: 'restricted:v1.24', spec: { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'c', image: 'i' }] }, want: 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")' },
  { name: 'init, regular and ephemeral containers in that order', at: 'baseline:latest', spec: { initContainers: [{ name: 'i', image: 'i', securityContext: { privileged: true } }], containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }], ephemeralContainers: [{ name: 'e', image: 'i', securityContext: { privileged: true } }] }, want: 'privileged (containers "i", "c", "e" must not set securityContext.privileged=true)' },
  { name: 'checks in ID order, baseline first', at: 'restricted:latest', spec: { hostPID: true, containers: [{ name: 'c', image: 'i', securityContext: { privileged: true, runAsUser: 0 } }] }, want: 'host namespaces (hostPID=true), privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), runAsUser=0 (container "c" must not set runAsUser=0), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")' },
  { name: 'a future version evaluates as the newest', at: 'restricted:v1.99', spec: podWith((s, sc) => { delete sc['runAsNonRoot']; s['hostUsers'] = false; }), want: '' },
  { name: 'privileged allows everything', at: 'privileged:latest', spec: { hostPID: true, containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] }, want: '' },
];

describe('PodSecurity checks', () => {
  for (const c of CASES) {
    it(c.name, () => assert.equal(detail(c.at, c.spec, c.meta), c.want));
  }
});
