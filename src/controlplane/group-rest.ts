// Builds the REST storage of an API group: one generic Store per resource (stored in the first
// version that serves it, which is also the hub its strategy sees), the status and other update
// subresources as views of it, and the conversions of the other versions in the Scheme.
// Counterpart of k8s.io/apiserver/pkg/registry/generic/registry (building a Store per resource) and
// k8s.io/apiserver/pkg/server (APIGroupInfo).
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { Scheme } from '../apimachinery/runtime/scheme.ts';
import { apiVersionOf, formatGroupResource, type GroupVersion } from '../apimachinery/schema/group-version.ts';
import type { APIGroupInstall, ResourceInstall } from '../endpoints/installer.ts';
import { SCALE_GROUP_VERSION, scaleStorage } from '../registry/generic/scale.ts';
import { Store } from '../registry/generic/store.ts';
import type { Getter, Updater } from '../registry/rest/capabilities.ts';
import type { APIGroupDefinition, StoreLookup, VirtualResource } from '../registry/rest/group.ts';
import type { ResourceDefinition, ResourceStore } from '../registry/rest/strategy.ts';
import type { Backend } from '../storage/backend.ts';
import { trackObjectCount } from '../storage/metrics.ts';
import { plainStorage, type StorageFor } from '../storage/cacher/factory.ts';
import { keyPrefixFor, storageCodec } from './storage-factory.ts';
import { DEFAULT_STORAGE_MEDIA_TYPE, type StorageMediaType } from '../storage/value-codec.ts';

/** Only get and update (and so patch): what status subresources serve. */
function getUpdateView(store: ResourceStore): Getter & Updater {
  return { get: store.get.bind(store), update: store.update.bind(store) };
}

export interface GroupREST {
  readonly install: APIGroupInstall;
  /** Main stores by "resource" (core) or "resource.group", and update subresources as "resource/sub". */
  readonly stores: ReadonlyMap<string, ResourceStore>;
}

export function buildGroupREST(scheme: Scheme, backend: Backend, etcdPrefix: string, group: APIGroupDefinition,
  enabled: (version: string) => boolean, lookup: StoreLookup, storageFor: StorageFor = plainStorage,
  mediaType: StorageMediaType = DEFAULT_STORAGE_MEDIA_TYPE): GroupREST {
  const { group: name } = group;
  scheme.setVersionPriority(name, group.versions.map((v) => v.version));
  for (const v of group.versions) {
    scheme.addKnownKinds({ group: name, version: v.version }, [...v.resources.map((d) => d.kind), ...(v.virtualResources ?? []).map((r) => r.kind)]);
  }
  for (const c of group.conversions ?? []) {
    scheme.addConversion({ group: name, version: c.version, kind: c.kind }, c.toHub, c.fromHub);
  }

  // One Store per resource, in its storage version: the first version that serves it.
  const stores = new Map<string, ResourceStore>();
  const served = new Map<string, { store: ResourceStore; main: ResourceStore; storageVersion: GroupVersion }>();
  for (const v of group.versions) {
    for (const def of v.resources) {
      const gv = { group: name, version: v.version };
      if (def.defaults !== undefined) scheme.addDefaulter({ ...gv, kind: def.kind }, def.defaults as (o: KubeObject) => void);
      if (served.has(def.resource)) continue;
      if (def.storedAs !== undefined) {
        const shared = lookup(def.storedAs.groupResource);
        if (shared === undefined) throw new Error(`${def.resource}.${name}: no storage ${def.storedAs.groupResource} to share`);
        const view = shared.withStrategy(def.strategy, { group: name, resource: def.resource });
        served.set(def.resource, { store: view, main: view, storageVersion: def.storedAs.hubVersion });
        continue;
      }
      const store = newResourceStore(scheme, backend, etcdPrefix, gv, def, storageFor, mediaType);
      const main = def.customizeStorage?.(store) ?? store;
      const key = formatGroupResource({ group: name, resource: def.resource });
      stores.set(key, main);
      for (const [sub, strategy] of Object.entries(def.updateSubresources ?? {})) stores.set(`${key}/${sub}`, store.withStrategy(strategy));
      served.set(def.resource, { store, main, storageVersion: gv });
    }
  }

  const versions = group.versions.filter((v) => enabled(v.version)).map((v) => ({
    version: v.version,
    resources: v.resources.flatMap((def): ResourceInstall[] => {
      const s = served.get(def.resource);
      if (s === undefined) return [];
      const installs: ResourceInstall[] = [
        { resource: def.resource, kind: def.kind, storage: s.main, definition: def, hubVersion: s.storageVersion },
      ];
      if (def.statusStrategy !== undefined) {
        installs.push({ resource: def.resource, subresource: 'status', kind: def.kind, definition: def, hubVersion: s.storageVersion,
          storage: getUpdateView(s.store.withStrategy(def.statusStrategy)) });
      }
      if (def.scale !== undefined) {
        installs.push({ resource: def.resource, subresource: 'scale', kind: 'Scale', definition: def, hubVersion: s.storageVersion,
          kindGroupVersion: SCALE_GROUP_VERSION, storage: scaleStorage(s.store, def.scale) });
      }
      for (const x of def.extraSubresources?.(s.store, lookup) ?? []) {
        if (x.defaults !== undefined) {
          const kgv = x.kindGroupVersion ?? { group: name, version: v.version };
          scheme.addKnownKinds(kgv, [x.kind]);
          scheme.addDefaulter({ ...kgv, kind: x.kind }, x.defaults);
        }
        installs.push({ resource: def.resource, subresource: x.name, kind: x.kind, definition: def, hubVersion: s.storageVersion,
          storage: x.storage, ...(x.kindGroupVersion !== undefined ? { kindGroupVersion: x.kindGroupVersion } : {}),
          ...(x.omitVerbs !== undefined ? { omitVerbs: x.omitVerbs } : {}),
          ...(x.goZeroValues !== undefined ? { subresourceZeroValues: x.goZeroValues } : {}) });
      }
      for (const sub of Object.keys(def.updateSubresources ?? {})) {
        const view = stores.get(`${formatGroupResource({ group: name, resource: def.resource })}/${sub}`);
        if (view !== undefined) {
          const putOnly = def.putOnlySubresources?.includes(sub) === true;
          installs.push({ resource: def.resource, subresource: sub, kind: def.kind, definition: def, hubVersion: s.storageVersion,
            storage: putOnly ? { update: view.update.bind(view) } satisfies Updater : getUpdateView(view),
            ...(putOnly ? { omitVerbs: ['patch'] } : {}) });
        }
      }
      return installs;
    }).concat((v.virtualResources ?? []).map((vr) => virtualInstall({ group: name, version: v.version }, vr, lookup))),
  })).filter((v) => v.resources.length > 0);
  return { install: { group: name, versions }, stores };
}

/** Strategies never run for a virtual resource: its REST object does all the work. */
const NO_STRATEGY = {
  prepareForCreate() {}, validate: () => [], allowCreateOnUpdate: false, allowUnconditionalUpdate: true,
  prepareForUpdate() {}, validateUpdate: () => [],
};

function virtualInstall(gv: GroupVersion, vr: VirtualResource, lookup: StoreLookup): ResourceInstall {
  const definition: ResourceDefinition<KubeObject> = {
    group: gv.group, kind: vr.kind, resource: vr.resource, singular: vr.singular, namespaced: vr.namespaced,
    strategy: NO_STRATEGY,
    ...(vr.shortNames !== undefined ? { shortNames: vr.shortNames } : {}),
    ...(vr.categories !== undefined ? { categories: vr.categories } : {}),
    ...(vr.table !== undefined ? { table: vr.table } : {}),
    ...(vr.lifecycle !== undefined ? { lifecycle: vr.lifecycle } : {}),
  };
  return { resource: vr.resource, kind: vr.kind, storage: vr.storage(lookup), definition, hubVersion: gv };
}

/**
 * The Go type of a built-in kind's internal version, as kube's errors print it: its package is
 * the group's first label ("core" for the legacy group).
 */
export function internalTypeName(group: string, kind: string): string {
  const pkg = group === '' ? 'core' : group === 'internal.apiserver.k8s.io' ? 'apiserverinternal' : group.split('.')[0] ?? group;
  return `*${pkg}.${kind}`;
}

/** The watch cache's index functions: a selectable field's value of a stored object. */
function cacheIndexes(def: ResourceDefinition<KubeObject>, fields: readonly string[]): Map<string, (obj: KubeObject) => string> {
  const select = def.selectableFields;
  return new Map(fields.map((f) => [f, (obj: KubeObject) => (select === undefined ? '' : select(obj)[f] ?? '')]));
}

function newResourceStore(scheme: Scheme, backend: Backend, etcdPrefix: string, gv: GroupVersion,
  def: ResourceDefinition<KubeObject>, storageFor: StorageFor, mediaType: StorageMediaType): ResourceStore {
  const apiVersion = apiVersionOf(gv);
  const groupResource = { group: gv.group, resource: def.resource };
  const keyPrefix = keyPrefixFor(etcdPrefix, gv.group, def.resource);
  const storage = storageFor({
    backend, codec: storageCodec(scheme, gv, mediaType, def.storageEncoding), resourcePrefix: keyPrefix,
    groupResource: formatGroupResource(groupResource),
    options: { newBookmark: (rv) => ({ apiVersion, kind: def.kind, metadata: { resourceVersion: rv } }), groupResource },
    ...(def.watchCacheIndexes !== undefined ? { indexes: cacheIndexes(def, def.watchCacheIndexes) } : {}),
    objectType: internalTypeName(gv.group, def.kind),
  });
  trackObjectCount(groupResource, () => storage.count(keyPrefix));
  return new Store<KubeObject>({ definition: def, storage, keyPrefix, listApiVersion: apiVersion });
}
