// Warnings for pods and pod templates (pkg/api/pod/warnings.go): deprecated node labels,
// annotations and volume plugins, overlapping volume paths, duplicates kube tolerates, fractional
// byte quantities, ambiguous ports, a negative grace period, selector-less affinity terms.
// `prefix` is the template's path (`spec.template`, `template`); pods have none.
import { fieldPath, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import { nodeLabelDeprecatedMessage, nodeSelectorTermWarnings } from '../node-labels.ts';
import { pvcSpecWarnings } from '../persistentvolumeclaim/warnings.ts';
import { APPARMOR_PREFIX } from './annotations.ts';
import { isDNS1123Label } from '../../../apimachinery/validation/validation.ts';
import { fractionalBytes } from '../v1/quantity.ts';
import type { Container, PersistentVolumeClaimSpec, PodSpec, PodTemplateSpec, Volume } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
type Obj = RO<Record<string, unknown>>;

const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Obj : undefined);
const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v as readonly unknown[] : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** fieldPath.Child(...) on a possibly nil *field.Path. */
const under = (prefix: FieldPath | undefined, name: string, ...more: string[]): FieldPath =>
  prefix === undefined ? fieldPath(name, ...more) : prefix.child(name, ...more);

const DEPRECATED_ANNOTATIONS: readonly (readonly [key: string, message: string])[] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** Volume plugins kube deprecated or removed, in the order kube checks them. */
const DEPRECATED_VOLUMES: readonly (readonly [source: string, message: string])[] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['ephemeral', ''],
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];
/** The Go field names kube prints for the sources whose JSON names differ. */
const GO_SOURCE_NAMES: Readonly<Record<string, string>> = { storageos: 'storageOS' };

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** VisitContainersWithPath: init containers, containers, ephemeral containers. */
function containersWithPaths(spec: RO<PodSpec>, specPath: FieldPath): [RO<Container>, FieldPath][] {
  const out: [RO<Container>, FieldPath][] = [];
  (spec.initContainers ?? []).forEach((c, i) => out.push([c, specPath.child('initContainers').index(i)]));
  (spec.containers ?? []).forEach((c, i) => out.push([c, specPath.child('containers').index(i)]));
  (spec.ephemeralContainers ?? []).forEach((c, i) => out.push([c, specPath.child('ephemeralContainers').index(i)]));
  return out;
}

// ---- overlapping paths (warningsForOverlappingVirtualPaths) ----

/** checkForOverlap: the first known path that equals or nests with `path`, '' when none. */
function overlapWith(known: readonly string[], path: string): string {
  for (const item of known) {
    if (item === '' || path === '') return '';
    if (item === path || `${item}/`.startsWith(path) || `${path}/`.startsWith(item)) return item;
  }
  return '';
}

function overlapWarnings(paths: readonly string[], message: string): string[] {
  const warnings: string[] = [];
  const seen: string[] = [];
  for (const p of paths) {
    const normalized = p.replace(/\/+$/, '');
    const collision = overlapWith(seen, normalized);
    if (collision !== '') warnings.push(`${message}: ${JSON.stringify(normalized)} with ${JSON.stringify(collision)}`);
    if (!seen.includes(normalized)) seen.push(normalized);
  }
  return warnings;
}

const itemPaths = (items: unknown): string[] | undefined => (Array.isArray(items) ? items.map((i) => str(obj(i)?.['path'])) : undefined);

function overlappingPathWarnings(volumes: readonly RO<Volume>[]): string[] {
  const warnings: string[] = [];
  for (const v of volumes) {
    const name = JSON.stringify(v.name ?? '');
    const cmPaths = itemPaths(v.configMap?.items);
    if (cmPaths !== undefined) warnings.push(...overlapWarnings(cmPaths, `volume ${name} (ConfigMap ${JSON.stringify(v.configMap?.name ?? '')}): overlapping paths`));
    const secretPaths = itemPaths(v.secret?.items);
    if (secretPaths !== undefined) warnings.push(...overlapWarnings(secretPaths, `volume ${name} (Secret ${JSON.stringify(v.secret?.secretName ?? '')}): overlapping paths`));
    const dapiPaths = itemPaths(v.downwardAPI?.items);
    if (dapiPaths !== undefined) warnings.push(...overlapWarnings(dapiPaths, `volume ${name} (DownwardAPI): overlapping paths`));
    if (v.projected === undefined || v.projected === null) continue;
    const all: string[] = [];
    for (const source of v.projected.sources ?? []) {
      const s = obj(source) ?? {};
      if (Object.values(s).every((x) => x === undefined || x === null)) {
        warnings.push(`volume ${name} (Projected) has no sources provided`);
        continue;
      }
      let paths: string[] | undefined;
      let message = '';
      const cm = obj(s['configMap']);
      const secret = obj(s['secret']);
      const dapi = obj(s['downwardAPI']);
      const sat = obj(s['serviceAccountToken']);
      const ctb = obj(s['clusterTrustBundle']);
      if (cm !== undefined && Array.isArray(cm['items'])) {
        paths = itemPaths(cm['items']);
        message = `volume ${name} (Projected ConfigMap ${JSON.stringify(str(cm['name']))}): overlapping paths`;
      } else if (secret !== undefined && Array.isArray(secret['items'])) {
        paths = itemPaths(secret['items']);
        message = `volume ${name} (Projected Secret ${JSON.stringify(str(secret['name']))}): overlapping paths`;
      } else if (dapi !== undefined && Array.isArray(dapi['items'])) {
        paths = itemPaths(dapi['items']);
        message = `volume ${name} (Projected DownwardAPI): overlapping paths`;
      } else if (sat !== undefined) {
        paths = [str(sat['path'])];
        message = `volume ${name} (Projected ServiceAccountToken): overlapping paths`;
      } else if (ctb !== undefined) {
        paths = [str(ctb['path'])];
        const id = typeof ctb['name'] === 'string' ? ctb['name'] : str(ctb['signerName']);
        message = `volume ${name} (Projected ClusterTrustBundle ${JSON.stringify(id)}): overlapping paths`;
      }
      if (paths === undefined || paths.length === 0) continue;
      warnings.push(...overlapWarnings(paths, message));
      const unique = [...new Set(paths)];
      warnings.push(...overlapWarnings([...unique, ...all].sort(), message));
      for (const p of unique) if (!all.includes(p)) all.push(p);
    }
  }
  return warnings;
}

// ---- the checks ----

/** %+v of a core.ContainerPort. */
const goPort = (p: Obj): string =>
  `{Name:${str(p['name'])} HostPort:${Number(p['hostPort'] ?? 0)} ContainerPort:${Number(p['containerPort'] ?? 0)} Protocol:${str(p['protocol'])} HostIP:${str(p['hostIP'])}}`;

function affinityTermWarnings(terms: unknown, path: FieldPath, weighted: boolean): string[] {
  const warnings: string[] = [];
  list(terms).forEach((t, i) => {
    const term = weighted ? obj(obj(t)?.['podAffinityTerm']) : obj(t);
    const selector = term?.['labelSelector'];
    if (selector === undefined || selector === null) {
      const p = weighted ? path.index(i).child('podAffinityTerm', 'labelSelector') : path.index(i).child('labelSelector');
      warnings.push(`${p.toString()}: a null labelSelector results in matching no pod`);
    }
  });
  return warnings;
}

function podSpecWarnings(prefix: FieldPath | undefined, spec: RO<PodSpec>, meta: RO<ObjectMeta> | undefined): string[] {
  const warnings: string[] = [];
  const annotations = meta?.annotations ?? {};
  const specPath = under(prefix, 'spec');

  for (const k of Object.keys(spec.nodeSelector ?? {})) {
    const msg = nodeLabelDeprecatedMessage(k);
    if (msg !== undefined) warnings.push(`${specPath.child('nodeSelector').key(k).toString()}: ${msg}`);
  }
  const nodeAffinity = obj(obj(spec.affinity)?.['nodeAffinity']);
  if (nodeAffinity !== undefined) {
    const required = obj(nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution']);
    if (required !== undefined) {
      const termPath = specPath.child('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
      list(required['nodeSelectorTerms']).forEach((t, i) => warnings.push(...nodeSelectorTermWarnings(obj(t), termPath.index(i))));
    }
    const preferredPath = specPath.child('affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution');
    list(nodeAffinity['preferredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) =>
      warnings.push(...nodeSelectorTermWarnings(obj(obj(t)?.['preference']), preferredPath.index(i).child('preference'))));
  }
  (spec.topologySpreadConstraints ?? []).forEach((t, i) => {
    const p = specPath.child('topologySpreadConstraints').index(i);
    const key = str(t['topologyKey']);
    const msg = nodeLabelDeprecatedMessage(key);
    if (msg !== undefined) warnings.push(`${p.child('topologyKey').toString()}: ${key} is ${msg}`);
    if (t['labelSelector'] === undefined || t['labelSelector'] === null) warnings.push(`${p.child('labelSelector').toString()}: a null labelSelector results in matching no pod`);
  });

  const annotationsPath = under(prefix, 'metadata', 'annotations');
  for (const [key, message] of DEPRECATED_ANNOTATIONS) {
    if (Object.hasOwn(annotations, key)) warnings.push(`${annotationsPath.key(key).toString()}: ${message}`);
  }

  (spec.volumes ?? []).forEach((v, i) => {
    const p = specPath.child('volumes').index(i);
    for (const [source, message] of DEPRECATED_VOLUMES) {
      const value = (v as Record<string, unknown>)[source];
      if (value === undefined || value === null) continue;
      if (source === 'ephemeral') {
        const template = obj(obj(value)?.['volumeClaimTemplate']);
        if (template !== undefined) {
          warnings.push(...pvcSpecWarnings(p.child('ephemeral').child('volumeClaimTemplate').child('spec'), (obj(template['spec']) ?? {}) as RO<PersistentVolumeClaimSpec>));
        }
        continue;
      }
      warnings.push(`${p.child(GO_SOURCE_NAMES[source] ?? source).toString()}: ${message}`);
    }
  });
  warnings.push(...overlappingPathWarnings(spec.volumes ?? []));

  const hostAliases = spec.hostAliases ?? [];
  if (hostAliases.length > 1) {
    const seen = new Set<string>();
    hostAliases.forEach((h, i) => {
      if (seen.has(h.ip ?? '')) warnings.push(`${specPath.child('hostAliases').index(i).child('ip').toString()}: duplicate ip ${JSON.stringify(h.ip ?? '')}`);
      else seen.add(h.ip ?? '');
    });
  }
  const pullSecrets = spec.imagePullSecrets ?? [];
  if (pullSecrets.length > 1) {
    const seen = new Set<string>();
    pullSecrets.forEach((s, i) => {
      if (seen.has(s.name ?? '')) warnings.push(`${specPath.child('imagePullSecrets').index(i).child('name').toString()}: duplicate name ${JSON.stringify(s.name ?? '')}`);
      else seen.add(s.name ?? '');
    });
  }
  pullSecrets.forEach((s, i) => {
    if ((s.name ?? '') === '') warnings.push(`${specPath.child('imagePullSecrets').index(i).child('name').toString()}: invalid empty name ""`);
  });

  for (const r of ['memory', 'ephemeral-storage']) {
    const text = fractionalBytes(spec.overhead?.[r]);
    if (text !== undefined) warnings.push(`${specPath.child('overhead').key(r).toString()}: fractional byte value ${JSON.stringify(text)} is invalid, must be an integer`);
  }

  const podSecurity = obj(spec.securityContext);
  if (podSecurity?.['seccompProfile'] === undefined || podSecurity['seccompProfile'] === null) {
    if (Object.hasOwn(annotations, SECCOMP_POD_ANNOTATION)) {
      warnings.push(`${annotationsPath.key(SECCOMP_POD_ANNOTATION).toString()}: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
  }
  const podAppArmor = podSecurity?.['appArmorProfile'] !== undefined && podSecurity['appArmorProfile'] !== null;
  const containers = containersWithPaths(spec, specPath);
  for (const [c, p] of containers) {
    const security = obj(c.securityContext);
    if (security?.['seccompProfile'] === undefined || security['seccompProfile'] === null) {
      const key = SECCOMP_CONTAINER_PREFIX + c.name;
      if (Object.hasOwn(annotations, key)) warnings.push(`${annotationsPath.key(key).toString()}: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    // Pods get their AppArmor warnings elsewhere (applyAppArmorVersionSkew); templates here.
    const hasAppArmor = podAppArmor || (security?.['appArmorProfile'] !== undefined && security['appArmorProfile'] !== null);
    if (prefix !== undefined && !hasAppArmor) {
      const key = APPARMOR_PREFIX + c.name;
      if (Object.hasOwn(annotations, key)) warnings.push(`${annotationsPath.key(key).toString()}: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    // memory limits and requests, then ephemeral-storage limits and requests
    for (const r of ['memory', 'ephemeral-storage']) {
      for (const [kind, values] of [['limits', c.resources?.limits], ['requests', c.resources?.requests]] as const) {
        const text = fractionalBytes(values?.[r]);
        if (text !== undefined) warnings.push(`${p.child('resources', kind).key(r).toString()}: fractional byte value ${JSON.stringify(text)} is invalid, must be an integer`);
      }
    }
    const env = c.env ?? [];
    if (env.length > 1) {
      const seen = new Set<string>();
      env.forEach((e, i) => {
        const name = e.name ?? '';
        if (!seen.has(name)) { seen.add(name); return; }
        const ref = `$(${name})`;
        const value = e.value ?? '';
        const bad = (e.valueFrom !== undefined && e.valueFrom !== null) || value === ref || !value.includes(ref);
        if (bad) warnings.push(`${p.child('env').index(i).toString()}: hides previous definition of ${JSON.stringify(name)}, which may be dropped when using apply`);
      });
    }
  }

  const ports = new Map<string, { path: FieldPath; hostIP: string; hostPort: number }[]>();
  for (const [c, p] of containers) {
    (c.ports ?? []).forEach((portValue, i) => {
      const port = portValue as Obj;
      const hostIP = str(port['hostIP']);
      const hostPort = Number(port['hostPort'] ?? 0);
      const path = p.child('ports').index(i);
      if (hostIP !== '' && hostPort === 0) warnings.push(`${path.toString()}: hostIP set without hostPort: ${goPort(port)}`);
      const key = `${Number(port['containerPort'] ?? 0)}/${str(port['protocol'])}`;
      const others = ports.get(key);
      if (others === undefined) { ports.set(key, [{ path, hostIP, hostPort }]); return; }
      for (const other of others) {
        if (hostIP === other.hostIP && hostPort === other.hostPort) {
          warnings.push(`${path.toString()}: duplicate port definition with ${other.path.toString()}`);
        } else if (hostPort === 0 || other.hostPort === 0) {
          warnings.push(`${path.toString()}: overlapping port definition with ${other.path.toString()}`);
        } else if (hostPort === other.hostPort && (hostIP === '') !== (other.hostIP === '')) {
          warnings.push(`${path.toString()}: dangerously ambiguous port definition with ${other.path.toString()}`);
        }
      }
      others.push({ path, hostIP, hostPort });
    });
  }

  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    warnings.push(`${specPath.child('terminationGracePeriodSeconds').toString()}: must be >= 0; negative values are invalid and will be treated as 1`);
  }

  const affinity = obj(spec.affinity);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = obj(affinity?.[kind]);
    if (a === undefined) continue;
    warnings.push(...affinityTermWarnings(a['requiredDuringSchedulingIgnoredDuringExecution'], specPath.child('affinity', kind, 'requiredDuringSchedulingIgnoredDuringExecution'), false));
    warnings.push(...affinityTermWarnings(a['preferredDuringSchedulingIgnoredDuringExecution'], specPath.child('affinity', kind, 'preferredDuringSchedulingIgnoredDuringExecution'), true));
  }
  return warnings;
}

/** GetWarningsForPod. */
export function podWarnings(pod: RO<{ metadata: ObjectMeta; spec?: PodSpec }>): string[] {
  return podSpecWarnings(undefined, pod.spec ?? { containers: [] }, pod.metadata);
}

/** GetWarningsForPodTemplate, for the template at `path` (`spec.template`, `template`). */
export function podTemplateWarnings(path: FieldPath, template: RO<PodTemplateSpec> | undefined): string[] {
  if (template === undefined || template === null) return [];
  return podSpecWarnings(path, template.spec ?? { containers: [] }, template.metadata);
}

/** The warning of workloads whose name is not a DNS label (their pods are named after them). */
export function workloadNameWarnings(name: string | undefined): string[] {
  const msgs = isDNS1123Label(name ?? '');
  return msgs.length === 0 ? [] : [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/** A pod's own name warning: it becomes the hostname. */
export function podNameWarnings(name: string | undefined): string[] {
  const msgs = isDNS1123Label(name ?? '');
  return msgs.length === 0 ? [] : [`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}
