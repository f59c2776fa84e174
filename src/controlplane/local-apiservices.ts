// The APIService objects of the group versions this server serves itself (kube's autoregister
// controller): `v1.`, `v1.apps`, ..., with spec.service unset (Local) and Available.
// Counterpart of k8s.io/kube-aggregator/pkg/controllers/autoregister and
// cmd/kube-apiserver/app/aggregator.go (the local APIServices).
import { isAlreadyExists, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { KubeObject, WireObject } from '../apimachinery/meta/types.ts';
import type { apiregistrationv1 } from '../generated/types/index.gen.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import type { DiscoveryGroup } from '../endpoints/discovery/types.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { nowRFC3339 } from '../registry/generic/names.ts';

/** `onstart` for the server's own group versions, `true` for those of CRDs (crd-registration-controller.ts). */
export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

/**
 * kube-apiserver's priorities per group version ([groupPriorityMinimum, versionPriority]): the
 * generic control plane's table (pkg/controlplane/apiserver/aggregator.go) overlaid with
 * kube-apiserver's (cmd/kube-apiserver/app/aggregator.go). kube registers no APIService for a
 * group version missing here.
 */
const PRIORITIES: Readonly<Record<string, readonly [number, number]>> = {
  'v1': [18000, 1],
  'events.k8s.io/v1': [17750, 15], 'events.k8s.io/v1beta1': [17750, 5],
  'authentication.k8s.io/v1': [17700, 15], 'authentication.k8s.io/v1beta1': [17700, 9], 'authentication.k8s.io/v1alpha1': [17700, 1],
  'authorization.k8s.io/v1': [17600, 15],
  'certificates.k8s.io/v1': [17300, 15], 'certificates.k8s.io/v1beta1': [17300, 9], 'certificates.k8s.io/v1alpha1': [17300, 1],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15], 'admissionregistration.k8s.io/v1beta1': [16700, 12],
  'admissionregistration.k8s.io/v1alpha1': [16700, 9],
  'coordination.k8s.io/v1': [16500, 15], 'coordination.k8s.io/v1beta1': [16500, 13], 'coordination.k8s.io/v1alpha2': [16500, 12],
  'discovery.k8s.io/v1': [16200, 15], 'discovery.k8s.io/v1beta1': [16200, 12],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21], 'flowcontrol.apiserver.k8s.io/v1beta3': [16100, 18],
  'flowcontrol.apiserver.k8s.io/v1beta2': [16100, 15], 'flowcontrol.apiserver.k8s.io/v1beta1': [16100, 12],
  'flowcontrol.apiserver.k8s.io/v1alpha1': [16100, 9],
  'internal.apiserver.k8s.io/v1alpha1': [16000, 9],
  'storagemigration.k8s.io/v1beta1': [15800, 9],
  'apps/v1': [17800, 15],
  'autoscaling/v1': [17500, 15], 'autoscaling/v2': [17500, 30], 'autoscaling/v2beta1': [17500, 9], 'autoscaling/v2beta2': [17500, 1],
  'batch/v1': [17400, 15], 'batch/v1beta1': [17400, 9], 'batch/v2alpha1': [17400, 9],
  'networking.k8s.io/v1': [17200, 15], 'networking.k8s.io/v1beta1': [17200, 9],
  'policy/v1': [17100, 15], 'policy/v1beta1': [17100, 9],
  'storage.k8s.io/v1': [16800, 15], 'storage.k8s.io/v1beta1': [16800, 9], 'storage.k8s.io/v1alpha1': [16800, 1],
  'scheduling.k8s.io/v1': [16600, 15], 'scheduling.k8s.io/v1alpha2': [16600, 2],
  'node.k8s.io/v1': [16300, 15], 'node.k8s.io/v1alpha1': [16300, 1], 'node.k8s.io/v1beta1': [16300, 9],
  'resource.k8s.io/v1': [16200, 21], 'resource.k8s.io/v1beta2': [16200, 15], 'resource.k8s.io/v1beta1': [16200, 9],
  'resource.k8s.io/v1alpha3': [16200, 1],
};

/** The priorities of a group version of the server, undefined when kube registers no APIService for it. */
function localAPIServicePriority(group: string, version: string): readonly [number, number] | undefined {
  return PRIORITIES[group === '' ? version : `${group}/${version}`];
}

/** What crdregistration gives the APIService of a CRD's group version. */
export const CRD_PRIORITY = { groupPriorityMinimum: 1000, versionPriority: 100 } as const;

/**
 * The priorities discovery orders a served group version by before its APIService exists (a CRD
 * a moment old): the built-in table's, else a CRD's.
 */
export function servedPriority(group: string, version: string): { groupPriorityMinimum: number; versionPriority: number } {
  const p = localAPIServicePriority(group, version);
  return p === undefined ? CRD_PRIORITY : { groupPriorityMinimum: p[0], versionPriority: p[1] };
}

/** Writes the Available condition of an APIService served right here. */
export async function markLocalAvailable(apiServices: ResourceStore<KubeObject>, name: string): Promise<void> {
  await apiServices.updateUnchecked(systemContext(''), name, (cur): WireObject<apiregistrationv1.APIService> => ({
    ...cur,
    status: { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: nowRFC3339(), reason: 'Local', message: 'Local APIServices are always available' }] },
  }), { dryRun: false });
}

/** The spec autoregister keeps an APIService at: served here (no service), with these priorities. */
export interface DesiredSpec {
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
}

type APIServiceView = WireObject<apiregistrationv1.APIService>;

/** reflect.DeepEqual of the spec with the desired one (whose other fields are zero). */
export function specMatches(spec: APIServiceView['spec'] | undefined, want: DesiredSpec): boolean {
  return spec !== undefined && (spec.group ?? '') === want.group && (spec.version ?? '') === want.version
    && spec.groupPriorityMinimum === want.groupPriorityMinimum && spec.versionPriority === want.versionPriority
    && (spec.service === undefined || spec.service === null) && (spec.caBundle ?? '') === '' && spec.insecureSkipTLSVerify !== true;
}

/** Sets the spec of an automanaged APIService back to the desired one (labels and status kept). */
export async function restoreSpec(apiServices: ResourceStore<KubeObject>, name: string, want: DesiredSpec): Promise<void> {
  await apiServices.updateUnchecked(systemContext(''), name, (cur) => ({ ...cur, spec: { ...want } }), { dryRun: false });
}

/**
 * Registers the group versions of `groups` (the kube-apiserver's, not the aggregator's own
 * apiregistration.k8s.io, which kube does not list as an APIService), once, at start: a missing
 * APIService is created (automanaged=onstart), an automanaged one whose spec differs is set back,
 * one created by a user (no label) is left alone, and an onstart one of a group version no longer
 * served (a disabled version, an older server) is deleted. APIServices deleted or changed later
 * stay so until the next start (autoregister's "once" rules).
 */
export async function registerLocalAPIServices(apiServices: ResourceStore<KubeObject>, groups: readonly DiscoveryGroup[]): Promise<void> {
  const ctx = systemContext('');
  const wanted = new Map<string, DesiredSpec>();
  for (const g of groups) {
    if (g.name === 'apiregistration.k8s.io') continue;
    for (const v of g.versions) {
      const priority = localAPIServicePriority(g.name, v.version);
      if (priority !== undefined) wanted.set(`${v.version}.${g.name}`, { group: g.name, version: v.version, groupPriorityMinimum: priority[0], versionPriority: priority[1] });
    }
  }
  const existing = new Map<string, APIServiceView>();
  for (const o of (await apiServices.list(ctx, {})).items as APIServiceView[]) existing.set(o.metadata.name ?? '', o);
  for (const [name, want] of wanted) {
    const cur = existing.get(name);
    const managed = cur?.metadata.labels?.[AUTOMANAGED_LABEL];
    if (cur === undefined) {
      const obj: APIServiceView = {
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { [AUTOMANAGED_LABEL]: 'onstart' } }, spec: { ...want },
      };
      try {
        await apiServices.create(ctx, obj, undefined, { dryRun: false });
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    } else if ((managed === 'onstart' || managed === 'true') && !specMatches(cur.spec, want)) {
      await restoreSpec(apiServices, name, want);
    } else if (managed !== 'onstart' && managed !== 'true') {
      continue;
    }
    await markLocalAvailable(apiServices, name);
  }
  for (const [name, cur] of existing) {
    if (wanted.has(name) || cur.metadata.labels?.[AUTOMANAGED_LABEL] !== 'onstart') continue;
    try {
      await apiServices.delete(ctx, name, undefined, {});
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
