// ServiceAccount admission for pods: every pod runs as a service account (`default` unless named)
// that must exist; unless automounting is off (pod first, then service account) the projected API
// access volume is mounted in every init and regular container; the service account's image pull
// secrets are copied to a pod that has none; with kubernetes.io/enforce-mountable-secrets the pod
// may reference only the secrets the service account lists; mirror pods may reference neither
// service accounts nor secrets.
// Counterpart of plugin/pkg/admission/serviceaccount.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { newForbidden, newUnknownError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import { admissionName } from './limit-ranger.ts';

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const VOLUME_PREFIX = 'kube-api-access-';
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
const MIRROR_POD = 'kubernetes.io/config.mirror';
const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';

interface Env { name: string; valueFrom?: { secretKeyRef?: { name?: string } } }
interface Container {
  name: string; volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  env?: Env[]; envFrom?: { secretRef?: { name?: string } }[];
}
interface Volume {
  name: string; secret?: { secretName?: string };
  projected?: { sources?: { secret?: { name?: string }; serviceAccountToken?: unknown }[] };
  [source: string]: unknown;
}
interface PodSpec {
  serviceAccountName?: string; serviceAccount?: string; automountServiceAccountToken?: boolean;
  volumes?: Volume[]; containers?: Container[]; initContainers?: Container[]; ephemeralContainers?: Container[];
  imagePullSecrets?: { name?: string }[];
}
type PodLike = KubeObject & { spec?: PodSpec };

export interface ServiceAccountLike extends KubeObject {
  automountServiceAccountToken?: boolean;
  secrets?: { name?: string }[];
  imagePullSecrets?: { name?: string }[];
}

/** A service account by namespace and name; undefined when it does not exist. */
export type ServiceAccountGetter = (namespace: string, name: string) => Promise<ServiceAccountLike | undefined>;

export interface ServiceAccountOptions {
  /** How long to wait between lookups of a `default` service account not created yet (kube: 100-200 ms, 10 tries). */
  readonly retryDelayMs?: number;
}

function suffix(): string {
  return [...randomBytes(5)].map((b) => ALPHANUMS[b % ALPHANUMS.length]).join('');
}

/** TokenVolumeSource: the token (3607 s), the cluster CA and the namespace. */
function apiAccessVolume(name: string): Volume {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    } as NonNullable<Volume['projected']>,
  };
}

/** Whether a pod names any secret (VisitPodSecretNames over all containers). */
function referencesSecrets(spec: PodSpec): boolean {
  if ((spec.imagePullSecrets ?? []).length > 0) return true;
  const containers = [...spec.initContainers ?? [], ...spec.containers ?? [], ...spec.ephemeralContainers ?? []];
  if (containers.some((c) => (c.envFrom ?? []).some((e) => e.secretRef !== undefined) ||
      (c.env ?? []).some((e) => e.valueFrom?.secretKeyRef !== undefined))) return true;
  return (spec.volumes ?? []).some((v) => v.secret !== undefined || (v.projected?.sources ?? []).some((s) => s.secret !== undefined) ||
    Object.values(v).some((src) => typeof src === 'object' && src !== null &&
      ('secretRef' in src || 'nodePublishSecretRef' in src || ('secretName' in src && v.secret === undefined))));
}

/** limitSecretReferences / limitEphemeralContainerSecretReferences: the first reference the service account does not list. */
function unlistedSecret(sa: ServiceAccountLike, spec: PodSpec, ephemeralOnly: boolean): string | undefined {
  const saName = sa.metadata.name ?? '';
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name ?? ''));
  const tail = `is not allowed because service account ${saName} does not reference that secret`;
  if (!ephemeralOnly) {
    for (const v of spec.volumes ?? []) {
      const name = v.secret?.secretName;
      if (v.secret !== undefined && !mountable.has(name ?? '')) return `volume with secret.secretName="${name ?? ''}" ${tail}`;
    }
  }
  const groups: [string, Container[] | undefined][] = ephemeralOnly ? [['ephemeral container', spec.ephemeralContainers]]
    : [['init container', spec.initContainers], ['container', spec.containers]];
  for (const [what, list] of groups) {
    for (const c of list ?? []) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref !== undefined && !mountable.has(ref.name ?? '')) return `${what} ${c.name} with envVar ${e.name} referencing secret.secretName="${ref.name ?? ''}" ${tail}`;
      }
      for (const e of c.envFrom ?? []) {
        if (e.secretRef !== undefined && !mountable.has(e.secretRef.name ?? '')) {
          return `${what} ${c.name} with envFrom referencing secret.secretName="${e.secretRef.name ?? ''}" ${tail}`;
        }
      }
    }
  }
  if (ephemeralOnly) return undefined;
  const pull = new Set((sa.imagePullSecrets ?? []).map((s) => s.name ?? ''));
  for (const [i, ref] of (spec.imagePullSecrets ?? []).entries()) {
    if (!pull.has(ref.name ?? '')) {
      return `imagePullSecrets[${i}].name="${ref.name ?? ''}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

const enforcesMountableSecrets = (sa: ServiceAccountLike): boolean =>
  ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(sa.metadata.annotations?.[ENFORCE_MOUNTABLE_SECRETS] ?? '');

function mountToken(spec: PodSpec): void {
  // An existing kube-api-access-* volume is reused; otherwise one is added if any container needs it.
  const existing = (spec.volumes ?? []).find((v) => v.name.startsWith(VOLUME_PREFIX))?.name;
  const volumeName = existing ?? `${VOLUME_PREFIX}${suffix()}`;
  let needed = false;
  for (const c of [...spec.initContainers ?? [], ...spec.containers ?? []]) {
    if ((c.volumeMounts ?? []).some((m) => m.mountPath === MOUNT_PATH)) continue;
    c.volumeMounts = [...c.volumeMounts ?? [], { name: volumeName, readOnly: true, mountPath: MOUNT_PATH }];
    needed = true;
  }
  if (existing === undefined && needed) spec.volumes = [...spec.volumes ?? [], apiAccessVolume(volumeName)];
}

export function serviceAccountAdmission(get: ServiceAccountGetter, opts: ServiceAccountOptions = {}): Plugin {
  const forbid = (a: Attributes, msg: string): Error => newForbidden({ group: '', resource: 'pods' }, admissionName(a), msg);
  // The `default` service account is created by a controller just after its namespace: kube retries.
  const lookup = async (a: Attributes, name: string): Promise<ServiceAccountLike> => {
    const attempts = name === 'default' ? 10 : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(opts.retryDelayMs ?? 100 + Math.floor(Math.random() * 100));
      const sa = await get(a.namespace, name);
      if (sa !== undefined) return sa;
    }
    throw forbid(a, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
  };
  const podOf = (a: Attributes): PodLike | undefined =>
    a.resource.group === '' && a.resource.resource === 'pods' && (a.subresource === '' || a.subresource === 'ephemeralcontainers') &&
    a.object !== undefined ? a.object as PodLike : undefined;
  const validate = async (a: Attributes): Promise<void> => {
    const pod = podOf(a);
    if (pod === undefined) return;
    const spec = pod.spec ?? {};
    const name = spec.serviceAccountName ?? '';
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      if (name === '') throw forbid(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
      const sa = await lookup(a, name);
      const bad = enforcesMountableSecrets(sa) ? unlistedSecret(sa, spec, true) : undefined;
      // A plain error in kube: a 500 with its text.
      if (bad !== undefined) throw newUnknownError(bad);
      return;
    }
    if (a.operation !== 'CREATE') return;
    if (pod.metadata.annotations?.[MIRROR_POD] !== undefined) {
      if (name !== '') throw forbid(a, 'a mirror pod may not reference service accounts');
      if (referencesSecrets(spec)) throw forbid(a, 'a mirror pod may not reference secrets');
      if ((spec.volumes ?? []).some((v) => (v.projected?.sources ?? []).some((s) => s.serviceAccountToken !== undefined))) {
        throw forbid(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      }
      return;
    }
    if (name === '') throw forbid(a, `no service account specified for pod ${a.namespace}/${pod.metadata.name ?? ''}`);
    const sa = await lookup(a, name);
    const bad = enforcesMountableSecrets(sa) ? unlistedSecret(sa, spec, false) : undefined;
    if (bad !== undefined) throw forbid(a, bad);
  };
  return {
    name: 'ServiceAccount',
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async admit(_ctx, a) {
      const pod = podOf(a);
      if (pod === undefined || a.operation !== 'CREATE') return;
      const spec = pod.spec ??= {};
      if (pod.metadata.annotations?.[MIRROR_POD] === undefined) {
        // v1's deprecated serviceAccount names the account when serviceAccountName does not.
        const name = spec.serviceAccountName !== undefined && spec.serviceAccountName !== '' ? spec.serviceAccountName
          : spec.serviceAccount !== undefined && spec.serviceAccount !== '' ? spec.serviceAccount : 'default';
        spec.serviceAccountName = name;
        spec.serviceAccount = name;
        const sa = await lookup(a, name);
        if (spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true) mountToken(spec);
        if ((spec.imagePullSecrets ?? []).length === 0 && (sa.imagePullSecrets ?? []).length > 0) {
          spec.imagePullSecrets = (sa.imagePullSecrets ?? []).map((s) => ({ name: s.name ?? '' }));
        }
      }
      await validate(a);
    },
    validate: (_ctx, a) => validate(a),
  };
}
