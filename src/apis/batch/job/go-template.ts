// A pod template as kube prints it as the bad value of a Job's "field is immutable" error: the
// internal core.PodTemplateSpec through encoding/json. Its ObjectMeta is inlined with its JSON tags;
// the internal pod types have no tags, so every field appears under its Go name, in declaration
// order, null when unset. The common types are listed field by field; anything else falls back to
// its wire JSON with the keys capitalised (close, but not exact).
import { goJSON, goStringMap } from '../../apps/validation/go-syntax.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { PodTemplateSpec } from '../../core/v1/types.ts';

type Json = Readonly<Record<string, unknown>>;
type Field = readonly [goName: string, wire: string, kind?: Kind];
type Kind = 'string' | 'bool' | 'map' | readonly Field[] | { readonly list: readonly Field[] } | 'resources';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const capitalised = (k: string): string => k.charAt(0).toUpperCase() + k.slice(1);

/** Wire JSON with the keys capitalised: the fallback for internal types not listed here. */
function fallback(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(fallback).join(',')}]`;
  if (isObj(v)) return `{${Object.entries(v).map(([k, x]) => `${goJSON(capitalised(k))}:${fallback(x)}`).join(',')}}`;
  return goJSON(v);
}

const RESOURCE_REQUIREMENTS: readonly Field[] = [['Limits', 'limits', 'map'], ['Requests', 'requests', 'map'], ['Claims', 'claims']];

const CONTAINER: readonly Field[] = [
  ['Name', 'name', 'string'], ['Image', 'image', 'string'], ['Command', 'command'], ['Args', 'args'], ['WorkingDir', 'workingDir', 'string'],
  ['Ports', 'ports'], ['EnvFrom', 'envFrom'], ['Env', 'env'], ['Resources', 'resources', 'resources'], ['ResizePolicy', 'resizePolicy'],
  ['RestartPolicy', 'restartPolicy'], ['RestartPolicyRules', 'restartPolicyRules'], ['VolumeMounts', 'volumeMounts'],
  ['VolumeDevices', 'volumeDevices'], ['LivenessProbe', 'livenessProbe'], ['ReadinessProbe', 'readinessProbe'],
  ['StartupProbe', 'startupProbe'], ['Lifecycle', 'lifecycle'], ['TerminationMessagePath', 'terminationMessagePath', 'string'],
  ['TerminationMessagePolicy', 'terminationMessagePolicy', 'string'], ['ImagePullPolicy', 'imagePullPolicy', 'string'],
  ['SecurityContext', 'securityContext'], ['Stdin', 'stdin', 'bool'], ['StdinOnce', 'stdinOnce', 'bool'], ['TTY', 'tty', 'bool'],
];

/** The internal PodSecurityContext, which also holds the host namespace switches of the v1 PodSpec. */
const POD_SECURITY_CONTEXT: readonly Field[] = [
  ['HostNetwork', 'hostNetwork', 'bool'], ['HostPID', 'hostPID', 'bool'], ['HostIPC', 'hostIPC', 'bool'],
  ['ShareProcessNamespace', 'shareProcessNamespace'], ['HostUsers', 'hostUsers'], ['SELinuxOptions', 'seLinuxOptions'],
  ['WindowsOptions', 'windowsOptions'], ['RunAsUser', 'runAsUser'], ['RunAsGroup', 'runAsGroup'], ['RunAsNonRoot', 'runAsNonRoot'],
  ['SupplementalGroups', 'supplementalGroups'], ['SupplementalGroupsPolicy', 'supplementalGroupsPolicy'], ['FSGroup', 'fsGroup'],
  ['FSGroupChangePolicy', 'fsGroupChangePolicy'], ['Sysctls', 'sysctls'], ['SeccompProfile', 'seccompProfile'],
  ['AppArmorProfile', 'appArmorProfile'], ['SELinuxChangePolicy', 'seLinuxChangePolicy'],
];

const TOLERATION: readonly Field[] = [
  ['Key', 'key', 'string'], ['Operator', 'operator', 'string'], ['Value', 'value', 'string'], ['Effect', 'effect', 'string'],
  ['TolerationSeconds', 'tolerationSeconds'],
];

const POD_SPEC: readonly Field[] = [
  ['Volumes', 'volumes'], ['InitContainers', 'initContainers', { list: CONTAINER }], ['Containers', 'containers', { list: CONTAINER }],
  ['EphemeralContainers', 'ephemeralContainers'], ['RestartPolicy', 'restartPolicy', 'string'],
  ['TerminationGracePeriodSeconds', 'terminationGracePeriodSeconds'], ['ActiveDeadlineSeconds', 'activeDeadlineSeconds'],
  ['DNSPolicy', 'dnsPolicy', 'string'], ['NodeSelector', 'nodeSelector', 'map'], ['ServiceAccountName', 'serviceAccountName', 'string'],
  ['AutomountServiceAccountToken', 'automountServiceAccountToken'], ['NodeName', 'nodeName', 'string'],
  ['SecurityContext', 'securityContext', POD_SECURITY_CONTEXT], ['ImagePullSecrets', 'imagePullSecrets'], ['Hostname', 'hostname', 'string'],
  ['Subdomain', 'subdomain', 'string'], ['SetHostnameAsFQDN', 'setHostnameAsFQDN'], ['Affinity', 'affinity'],
  ['SchedulerName', 'schedulerName', 'string'], ['Tolerations', 'tolerations', { list: TOLERATION }], ['HostAliases', 'hostAliases'],
  ['PriorityClassName', 'priorityClassName', 'string'], ['Priority', 'priority'], ['PreemptionPolicy', 'preemptionPolicy'],
  ['DNSConfig', 'dnsConfig'], ['ReadinessGates', 'readinessGates'], ['RuntimeClassName', 'runtimeClassName'], ['Overhead', 'overhead', 'map'],
  ['EnableServiceLinks', 'enableServiceLinks'], ['TopologySpreadConstraints', 'topologySpreadConstraints'], ['OS', 'os'],
  ['SchedulingGates', 'schedulingGates'], ['ResourceClaims', 'resourceClaims'], ['Resources', 'resources'],
  ['HostnameOverride', 'hostnameOverride'], ['SchedulingGroup', 'schedulingGroup'],
];

function value(v: unknown, kind: Kind | undefined): string {
  if (kind === 'string') return goJSON(typeof v === 'string' ? v : '');
  if (kind === 'bool') return v === true ? 'true' : 'false';
  if (kind === 'map') return isObj(v) ? goStringMap(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]))) : 'null';
  if (kind === 'resources') return struct(isObj(v) ? v : {}, RESOURCE_REQUIREMENTS);
  if (v === undefined || v === null) return 'null';
  if (kind === undefined) return fallback(v);
  if ('list' in kind) return Array.isArray(v) ? `[${v.map((x) => struct(isObj(x) ? x : {}, kind.list)).join(',')}]` : 'null';
  return isObj(v) ? struct(v, kind) : 'null';
}

function struct(o: Json, fields: readonly Field[]): string {
  return `{${fields.map(([go, wire, kind]) => `"${go}":${value(o[wire], kind)}`).join(',')}}`;
}

/** The ObjectMeta of a template: its JSON tags, empty fields left out. */
function objectMeta(m: Json | undefined): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(m ?? {})) {
    if (v === undefined || v === null || v === '' || v === 0 || (isObj(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0)) continue;
    parts.push(`${goJSON(k)}:${isObj(v) && (k === 'labels' || k === 'annotations') ? goStringMap(v as Record<string, string>) : goJSON(v)}`);
  }
  return parts.join(',');
}

/** The internal PodTemplateSpec of a v1 template, as encoding/json writes it. */
export function goPodTemplateSpec(t: DeepReadonly<PodTemplateSpec> | undefined): string {
  const spec = (t?.spec ?? {}) as Json;
  // v1 keeps the host namespace switches in the PodSpec; the internal type in its security context
  const sc = { ...(isObj(spec['securityContext']) ? spec['securityContext'] : {}) } as Record<string, unknown>;
  for (const k of ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers']) if (spec[k] !== undefined) sc[k] = spec[k];
  const meta = objectMeta(t?.metadata as Json | undefined);
  return `{${meta === '' ? '' : `${meta},`}"Spec":${struct({ ...spec, securityContext: sc }, POD_SPEC)}}`;
}

/** The internal PodSpec alone (the value of the spec.template.spec error of a suspended job). */
export function goPodSpec(spec: DeepReadonly<PodTemplateSpec['spec']> | undefined): string {
  const text = goPodTemplateSpec({ spec: (spec ?? {}) as PodTemplateSpec['spec'] });
  return text.slice('{"Spec":'.length, -1);
}
