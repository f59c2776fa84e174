// ServiceAccount admission for pods: every pod runs as a service account (`default` unless
// named) and, unless automounting is off, gets the projected API access volume mounted in every
// container, as kube-apiserver's plugin does.
// Counterpart of plugin/pkg/admission/serviceaccount.
import { randomBytes } from 'node:crypto';
import type { WireObject } from '../../apimachinery/meta/types.ts';
import type { corev1 } from '../../generated/types/index.gen.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Attributes, Operation, Plugin } from '../interfaces.ts';
import { createdPodSpec } from './pod-create.ts';

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

type PodLike = WireObject<corev1.Pod>;

/** Whether the named service account turns automounting off; undefined when it does not exist. */
export type ServiceAccountAutomount = (namespace: string, name: string) => Promise<boolean | undefined>;

function suffix(): string {
  return [...randomBytes(5)].map((b) => ALPHANUMS[b % ALPHANUMS.length]).join('');
}

function apiAccessVolume(name: string): corev1.Volume {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

export function serviceAccountAdmission(automountOf: ServiceAccountAutomount): Plugin {
  return {
    name: 'ServiceAccount',
    handles: (op: Operation) => op === 'CREATE',
    async admit(_ctx: RequestContext, a: Attributes): Promise<void> {
      const created = createdPodSpec<NonNullable<PodLike['spec']>>(a);
      if (created === undefined) return;
      const { spec } = created;
      const name = spec.serviceAccountName !== undefined && spec.serviceAccountName !== '' ? spec.serviceAccountName
        : spec.serviceAccount !== undefined && spec.serviceAccount !== '' ? spec.serviceAccount : 'default';
      spec.serviceAccountName = name;
      spec.serviceAccount = name;
      // The pod's own setting wins over the service account's; both default to mounting.
      const automount = spec.automountServiceAccountToken ?? (await automountOf(a.namespace, name)) ?? true;
      if (!automount) return;
      const all = [...spec.containers ?? [], ...spec.initContainers ?? []];
      if (all.some((c) => (c.volumeMounts ?? []).some((m) => m.mountPath === MOUNT_PATH))) return;
      const volumeName = `kube-api-access-${suffix()}`;
      spec.volumes = [...spec.volumes ?? [], apiAccessVolume(volumeName)];
      for (const c of all) c.volumeMounts = [...c.volumeMounts ?? [], { name: volumeName, readOnly: true, mountPath: MOUNT_PATH }];
    },
  };
}
