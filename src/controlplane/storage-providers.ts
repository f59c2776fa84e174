// kube's RESTStorageProvider, seen from the control plane: the REST storage of every API group is
// built once (buildStorage), and what the control plane's own hooks and controllers use is handed
// out as typed handles, looked up once by name here and nowhere else; a missing required store
// fails the build, not a request.
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Scheme } from '../apimachinery/runtime/scheme.ts';
import type { APIGroupInstall } from '../endpoints/installer.ts';
import type { Store } from '../registry/generic/store.ts';
import type { GracefulDeleter, Updater } from '../registry/rest/capabilities.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import type { Backend } from '../storage/backend.ts';
import { buildGroupREST } from './group-rest.ts';

export interface CoreStorage {
  readonly namespaces: Store<KubeObject> & GracefulDeleter;
  /** The finalize subresource: the only way to change spec.finalizers. */
  readonly namespaceFinalize: Updater;
  readonly serviceAccounts: Store<KubeObject>;
  readonly configMaps: Store<KubeObject>;
  readonly secrets: Store<KubeObject>;
  readonly pods: Store<KubeObject>;
  readonly nodes: Store<KubeObject>;
  readonly services: Store<KubeObject>;
  readonly endpoints: Store<KubeObject>;
  readonly persistentVolumes: Store<KubeObject>;
  readonly persistentVolumeClaims: Store<KubeObject>;
  readonly resourceQuotas: Store<KubeObject>;
  readonly limitRanges: Store<KubeObject>;
}

export interface RBACStorage {
  readonly roles: Store<KubeObject>;
  readonly roleBindings: Store<KubeObject>;
  readonly clusterRoles: Store<KubeObject>;
  readonly clusterRoleBindings: Store<KubeObject>;
}

/** Stores of groups that --runtime-config may turn off: undefined then. */
export interface OptionalStorage {
  readonly priorityClasses: Store<KubeObject> | undefined;
  readonly storageClasses: Store<KubeObject> | undefined;
  readonly ingressClasses: Store<KubeObject> | undefined;
  readonly endpointSlices: Store<KubeObject> | undefined;
  readonly ipAddresses: Store<KubeObject> | undefined;
  readonly serviceCIDRs: Store<KubeObject> | undefined;
}

export interface ServerStorage {
  readonly core: CoreStorage;
  readonly rbac: RBACStorage;
  readonly crds: Store<KubeObject>;
  readonly apiServices: Store<KubeObject>;
  readonly optional: OptionalStorage;
  /** Every main store (no subresources), in build order. */
  readonly all: readonly Store<KubeObject>[];
  /** The namespaced ones among them. */
  readonly namespaced: readonly Store<KubeObject>[];
  /** By "resource" (core) or "resource.group", and subresources as "resource/sub" (for lookups by name: bootstrap policy, quota evaluators). */
  readonly byName: ReadonlyMap<string, Store<KubeObject>>;
  /** What the installer serves, one entry per group. */
  readonly installs: readonly APIGroupInstall[];
}

/**
 * Builds every group's REST storage, in order: a group may share the storage of one built before
 * it (events.k8s.io → core events).
 */
export function buildStorage(scheme: Scheme, backend: Backend, etcdPrefix: string, groups: readonly APIGroupDefinition[],
  enabled: (group: string, version: string) => boolean): ServerStorage {
  const byName = new Map<string, Store<KubeObject>>();
  const installs = groups.map((g) => {
    const rest = buildGroupREST(scheme, backend, etcdPrefix, g, (v) => enabled(g.group, v), (gr) => byName.get(gr));
    for (const [k, s] of rest.stores) byName.set(k, s);
    return rest.install;
  });
  const get = (r: string): Store<KubeObject> => {
    const s = byName.get(r);
    if (s === undefined) throw new Error(`no store for ${r}`);
    return s;
  };
  const all = [...byName.entries()].filter(([r]) => !r.includes('/')).map(([, s]) => s);
  return {
    core: {
      namespaces: get('namespaces') as Store<KubeObject> & GracefulDeleter, namespaceFinalize: get('namespaces/finalize'),
      serviceAccounts: get('serviceaccounts'), configMaps: get('configmaps'), secrets: get('secrets'), pods: get('pods'),
      nodes: get('nodes'), services: get('services'), endpoints: get('endpoints'), persistentVolumes: get('persistentvolumes'),
      persistentVolumeClaims: get('persistentvolumeclaims'), resourceQuotas: get('resourcequotas'), limitRanges: get('limitranges'),
    },
    rbac: {
      roles: get('roles.rbac.authorization.k8s.io'), roleBindings: get('rolebindings.rbac.authorization.k8s.io'),
      clusterRoles: get('clusterroles.rbac.authorization.k8s.io'), clusterRoleBindings: get('clusterrolebindings.rbac.authorization.k8s.io'),
    },
    crds: get('customresourcedefinitions.apiextensions.k8s.io'),
    apiServices: get('apiservices.apiregistration.k8s.io'),
    optional: {
      priorityClasses: byName.get('priorityclasses.scheduling.k8s.io'), storageClasses: byName.get('storageclasses.storage.k8s.io'),
      ingressClasses: byName.get('ingressclasses.networking.k8s.io'), endpointSlices: byName.get('endpointslices.discovery.k8s.io'),
      ipAddresses: byName.get('ipaddresses.networking.k8s.io'), serviceCIDRs: byName.get('servicecidrs.networking.k8s.io'),
    },
    all, namespaced: all.filter((s) => s.definition.namespaced), byName, installs,
  };
}
