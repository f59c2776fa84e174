// kube's RESTStorageProvider, seen from the control plane: the REST storage of every API group is
// built once (buildStorage), and what the control plane's own hooks and controllers use is handed
// out as typed handles, looked up once by name here and nowhere else; a missing required store
// fails the build, not a request.
// Counterpart of pkg/controlplane/apiserver/apis.go (RESTStorageProvider).
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Scheme } from '../apimachinery/runtime/scheme.ts';
import type { APIGroupInstall } from '../endpoints/installer.ts';
import type { GracefulDeleter, Updater } from '../registry/rest/capabilities.ts';
import type { APIGroupDefinition } from '../registry/rest/group.ts';
import type { Backend } from '../storage/backend.ts';
import { buildGroupREST } from './group-rest.ts';
import type { StorageFor } from '../storage/cacher/factory.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import type { StorageMediaType } from '../storage/value-codec.ts';

export interface CoreStorage {
  readonly namespaces: ResourceStore<KubeObject> & GracefulDeleter;
  /** The finalize subresource: the only way to change spec.finalizers. */
  readonly namespaceFinalize: Updater;
  readonly serviceAccounts: ResourceStore<KubeObject>;
  readonly configMaps: ResourceStore<KubeObject>;
  readonly secrets: ResourceStore<KubeObject>;
  readonly pods: ResourceStore<KubeObject>;
  readonly nodes: ResourceStore<KubeObject>;
  readonly services: ResourceStore<KubeObject>;
  readonly endpoints: ResourceStore<KubeObject>;
  readonly persistentVolumes: ResourceStore<KubeObject>;
  readonly persistentVolumeClaims: ResourceStore<KubeObject>;
  readonly resourceQuotas: ResourceStore<KubeObject>;
  readonly limitRanges: ResourceStore<KubeObject>;
}

export interface RBACStorage {
  readonly roles: ResourceStore<KubeObject>;
  readonly roleBindings: ResourceStore<KubeObject>;
  readonly clusterRoles: ResourceStore<KubeObject>;
  readonly clusterRoleBindings: ResourceStore<KubeObject>;
}

/** Stores of groups that --runtime-config may turn off: undefined then. */
export interface OptionalStorage {
  readonly priorityClasses: ResourceStore<KubeObject> | undefined;
  readonly storageClasses: ResourceStore<KubeObject> | undefined;
  readonly ingressClasses: ResourceStore<KubeObject> | undefined;
  readonly endpointSlices: ResourceStore<KubeObject> | undefined;
  readonly ipAddresses: ResourceStore<KubeObject> | undefined;
  readonly serviceCIDRs: ResourceStore<KubeObject> | undefined;
  readonly volumeAttributesClasses: ResourceStore<KubeObject> | undefined;
}

export interface ServerStorage {
  readonly core: CoreStorage;
  readonly rbac: RBACStorage;
  readonly crds: ResourceStore<KubeObject>;
  readonly apiServices: ResourceStore<KubeObject>;
  readonly optional: OptionalStorage;
  /** Every main store (no subresources), in build order. */
  readonly all: readonly ResourceStore<KubeObject>[];
  /** The namespaced ones among them. */
  readonly namespaced: readonly ResourceStore<KubeObject>[];
  /** By "resource" (core) or "resource.group", and subresources as "resource/sub" (for lookups by name: bootstrap policy, quota evaluators). */
  readonly byName: ReadonlyMap<string, ResourceStore<KubeObject>>;
  /** What the installer serves, one entry per group. */
  readonly installs: readonly APIGroupInstall[];
}

/**
 * Builds every group's REST storage, in order: a group may share the storage of one built before
 * it (events.k8s.io → core events).
 */
export function buildStorage(scheme: Scheme, backend: Backend, etcdPrefix: string, groups: readonly APIGroupDefinition[],
  enabled: (group: string, version: string) => boolean, storageFor?: StorageFor, mediaType?: StorageMediaType): ServerStorage {
  const byName = new Map<string, ResourceStore<KubeObject>>();
  const installs = groups.map((g) => {
    const rest = buildGroupREST(scheme, backend, etcdPrefix, g, (v) => enabled(g.group, v), (gr) => byName.get(gr), storageFor, mediaType);
    for (const [k, s] of rest.stores) byName.set(k, s);
    return rest.install;
  });
  const get = (r: string): ResourceStore<KubeObject> => {
    const s = byName.get(r);
    if (s === undefined) throw new Error(`no store for ${r}`);
    return s;
  };
  const all = [...byName.entries()].filter(([r]) => !r.includes('/')).map(([, s]) => s);
  return {
    core: {
      namespaces: get('namespaces') as ResourceStore<KubeObject> & GracefulDeleter, namespaceFinalize: get('namespaces/finalize'),
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
      volumeAttributesClasses: byName.get('volumeattributesclasses.storage.k8s.io'),
    },
    all, namespaced: all.filter((s) => s.definition.namespaced), byName, installs,
  };
}
