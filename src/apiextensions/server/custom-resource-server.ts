// The apiextensions server's serving half: watches CRDs and serves the custom resources of every
// CRD whose names are accepted, through a generic APIInstaller rebuilt on each change. Custom
// resources are stored as JSON in their storage version under /registry/<group>/<plural>;
// other served versions convert with strategy None (only apiVersion changes) or through the
// CRD's conversion webhook (a Store per version, see conversion/converting-storage.ts).
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go.
import { unstructuredOrder } from '../../apimachinery/runtime/unstructured-order.ts';
import type { Transformer } from '../../storage/value/transformer.ts';
import { transformingBackend } from '../../storage/value/transforming-backend.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdmissionChain } from '../../admission/interfaces.ts';
import type { InformerSource } from '../../client/controller.ts';
import { SharedInformer } from '../../client/cache/shared-informer.ts';
import { decodeBody } from '../../apimachinery/fieldvalidation/index.ts';
import { StatusError } from '../../apimachinery/errors/status-error.ts';
import { deepEqual } from '../../apimachinery/validation/object-meta.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { SchemaNode } from '../../apimachinery/openapi/types.ts';
import { Scheme } from '../../apimachinery/runtime/scheme.ts';
import { gvkKey } from '../../apimachinery/schema/group-version.ts';
import type { DiscoveryGroup } from '../../endpoints/discovery/types.ts';
import type { HandlerDeps } from '../../endpoints/handlers/scope.ts';
import { APIInstaller, type APIGroupInstall, type ResourceInstall } from '../../endpoints/installer.ts';
import type { ServedResource, ServedSubresource } from '../../endpoints/openapi/served.ts';
import type { RequestState } from '../../endpoints/request/state.ts';
import { SCALE_GROUP_VERSION, scaleStorage } from '../../registry/generic/scale.ts';
import { Store } from '../../registry/generic/store.ts';
import type { Getter, Updater } from '../../registry/rest/capabilities.ts';
import type { DeepReadonly, ResourceStore } from '../../registry/rest/strategy.ts';
import type { Backend } from '../../storage/backend.ts';
import { decodeValue, encodeValue } from '../../storage/value-codec.ts';
import { plainOwnedStorage, plainStorage, type OwnedStorage, type OwnedStorageFor } from '../../storage/cacher/factory.ts';
import type { Codec, Interface } from '../../storage/interfaces.ts';
import type { StoreOptions } from '../../storage/store.ts';
import { definitionName, kindSchema, publishedSchemas, toDecodeSchema } from '../schema/convert.ts';
import { applyDefaults } from '../schema/defaulting.ts';
import { conditionOf, isEstablished, type CustomResourceDefinition, type JSONSchemaProps } from '../v1/types.ts';
import { customResourceDefinition } from './resource-definition.ts';
import { customResourceDefinitions } from '../openapi/builder.ts';
import { ClientManager } from '../../webhook/index.ts';
import { newConvertingStorage, type ConvertFunc } from '../conversion/converting-storage.ts';
import { newConverter } from '../conversion/converter.ts';
import { crdVersionConverter } from '../conversion/version-converter.ts';
import { prune } from '../schema/pruning.ts';
import { compareKubeAwareVersions } from '../../apimachinery/util/version-order.ts';

type CRD = CustomResourceDefinition;

export interface CustomResourceServerOptions {
  /** The CRD Store (customresourcedefinitions.apiextensions.k8s.io). */
  readonly crds: ResourceStore;
  readonly backend: Backend;
  /** --etcd-prefix, e.g. "/registry". */
  readonly etcdPrefix: string;
  readonly admission: AdmissionChain;
  readonly minRequestTimeoutSeconds: number;
  /** Shared with the other servers, so shutdown ends CR watches too. */
  readonly openWatches: Set<() => void>;
  /** The shared informers (absent: a private CRD informer). */
  readonly informers?: InformerSource;
  /** The clients of conversion webhooks (absent: a manager resolving services by their DNS names). */
  readonly webhookClients?: ClientManager;
  /** The storage of a CRD's custom resources, with its watch cache (absent: plain storage). */
  readonly storageFor?: OwnedStorageFor;
  /** The value transformer (encryption at rest) of a custom resource ("widgets.example.com"), if any. */
  readonly transformerFor?: (groupResource: string) => Transformer | undefined;
}

interface Built {
  readonly installer: APIInstaller;
  readonly served: ServedResource[];
  readonly stores: Map<string, ServedStore>;
  readonly terminating: Set<string>;
}

/** The Store of a served CRD's custom resources. */
export interface ServedStore {
  readonly store: ResourceStore;
  /** The CRD's uid, storage version, scope (and webhook conversion): a rebuilt Store with the same identity reads and writes the same. */
  readonly identity: string;
}

const isServable = (crd: DeepReadonly<CRD>): boolean =>
  isEstablished(crd) || conditionOf(crd, 'NamesAccepted')?.status === 'True';

export class CustomResourceServer {
  private readonly crds = new Map<string, CRD>();
  private built: Built;
  private readonly listeners = new Set<() => void>();
  private readonly informer: SharedInformer;
  private readonly removeHandler: () => void;
  private started = false;
  private defaultClients: ClientManager | undefined;
  /** The conversion of each webhook-converted kind, by "group/Kind", for admission's matchPolicy Equivalent. */
  private readonly converters = new Map<string, ConvertFunc>();
  /** CRD name → its storage (and watch cache) and the CRD uid and spec it was built for. */
  private readonly storages = new Map<string, { readonly uid: string; readonly spec: DeepReadonly<CRD['spec']>; readonly owned: OwnedStorage }>();

  constructor(private readonly opts: CustomResourceServerOptions) {
    this.built = this.build();
    const name = 'customresourcedefinitions.apiextensions.k8s.io';
    this.informer = opts.informers?.(opts.crds, name) ?? new SharedInformer(opts.crds, { name });
    this.removeHandler = this.informer.addEventHandler({
      // The first list is taken whole, and served at start() with one rebuild.
      onAdd: (crd, initial) => { if (initial && !this.started) this.crds.set(crd.metadata.name ?? '', crd as CRD); else this.observe(crd as CRD); },
      onUpdate: (_old, crd) => { this.observe(crd as CRD); },
      onDelete: (crd) => { this.crds.delete(crd.metadata.name ?? ''); this.rebuild(); },
    });
  }

  /** Lists the CRDs and follows their changes until stop(). */
  async start(): Promise<void> {
    await this.informer.start();
    this.started = true;
    this.rebuild();
  }

  /** Resolves once the CRD informer has synced, or its first list failed (it is retried: see hasSynced). */
  async synced(): Promise<void> {
    await this.informer.start();
  }

  /** The CRD informer has synced (crd-informer-synced's check). */
  hasSynced(): boolean { return this.informer.hasSynced(); }

  stop(): void {
    this.removeHandler();
    if (this.opts.informers === undefined) this.informer.stop();
    for (const s of this.storages.values()) s.owned.release();
    this.storages.clear();
  }

  /**
   * Takes a CRD as it is (or is about to be) stored. The establishing controller calls this
   * before it writes Established, so that clients who see the condition find the resource served.
   */
  observe(crd: CRD): void {
    const name = crd.metadata.name ?? '';
    const prev = this.crds.get(name);
    if (prev !== undefined && Number(prev.metadata.resourceVersion ?? 0) > Number(crd.metadata.resourceVersion ?? 0)) return;
    this.crds.set(name, crd);
    this.rebuild();
  }

  /** Called after every change of what is served (for OpenAPI). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Serves a custom resource request; resolves false when the request is not for one. */
  async serve(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<boolean> {
    const info = state.info;
    if (info === undefined || !info.isResourceRequest) return false;
    const built = this.built;
    if (!built.installer.servesGroupVersion(info.apiGroup, info.apiVersion)) return false;
    if (info.verb === 'create' && built.terminating.has(`${info.resource}.${info.apiGroup}`)) {
      throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 405,
        reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating',
        details: { group: info.apiGroup, kind: info.resource } });
    }
    return built.installer.serve(req, res, state);
  }

  /** Discovery of the established CRDs: groups by name, versions kube-aware ordered. */
  discovery(): DiscoveryGroup[] {
    return this.built.installer.discovery;
  }

  /** What OpenAPI publishes for custom resources, with their schemas. */
  servedResources(): ServedResource[] {
    return this.built.served;
  }

  /** The Store of a CRD's custom resources ("crontabs.stable.example.com"), when served. */
  storeFor(crdName: string): ResourceStore | undefined {
    return this.built.stores.get(crdName)?.store;
  }

  /** The Stores of every served CRD's custom resources, by CRD name. */
  servedStores(): ReadonlyMap<string, ServedStore> {
    return this.built.stores;
  }

  /** A Store of a CRD's custom resources, whether or not it is served (for cleanup). */
  newStoreFor(crd: DeepReadonly<CRD>): ResourceStore | undefined {
    const storage = crd.spec.versions.find((v) => v.storage);
    return storage === undefined ? undefined : this.newResourceStore(crd, storage.name, false);
  }

  /**
   * The storage of a CRD's custom resources. Served (`cached`), it is one per CRD uid and spec,
   * kept across rebuilds of what is served: kube's crdHandler builds a CRD's storage, and its
   * cacher, anew when the spec changes (decoding and defaults follow the schemas) and destroys
   * the old one; release() stops the old cache, whose watches end (clients re-watch). The cleanup
   * of a terminating CRD reads storage itself.
   */
  private storageOf(crd: DeepReadonly<CRD>, codec: Codec, options: StoreOptions, cached: boolean): Interface {
    const { group, names } = crd.spec;
    const spec = {
      backend: this.backendFor(group, names.plural), codec, resourcePrefix: this.keyPrefix(crd), groupResource: `${names.plural}.${group}`, options,
      objectType: '*unstructured.Unstructured',
    };
    if (!cached) return plainStorage(spec);
    const name = crd.metadata.name ?? '';
    const uid = crd.metadata.uid ?? '';
    const had = this.storages.get(name);
    // kube's updateCustomResourceDefinition: a semantically equal spec keeps the storage.
    if (had !== undefined && had.uid === uid && deepEqual(had.spec, crd.spec)) return had.owned.storage;
    had?.owned.release();
    const owned = (this.opts.storageFor ?? plainOwnedStorage)(spec);
    this.storages.set(name, { uid, spec: crd.spec, owned });
    return owned.storage;
  }

  private keyPrefix(crd: DeepReadonly<CRD>): string {
    return `${this.opts.etcdPrefix.replace(/\/+$/, '')}/${crd.spec.group}/${crd.spec.names.plural}`;
  }

  private rebuild(): void {
    this.built = this.build();
    for (const l of this.listeners) {
      try { l(); } catch (err) { console.error('custom resource server listener:', err); }
    }
  }

  private newResourceStore(crd: DeepReadonly<CRD>, storageVersion: string, cached: boolean): ResourceStore {
    if (crd.spec.conversion?.strategy === 'Webhook') {
      return this.versionStores(crd, storageVersion, cached).get(storageVersion) ?? this.noneStore(crd, storageVersion, cached);
    }
    return this.noneStore(crd, storageVersion, cached);
  }

  /**
   * The Stores of a Webhook-conversion CRD, one per version: each reads and writes through the
   * conversion webhook (converting-storage.ts), as kube's storage per served version does.
   */
  private versionStores(crd: DeepReadonly<CRD>, storageVersion: string, cached: boolean): Map<string, ResourceStore> {
    const { group, names } = crd.spec;
    const schemaOf = (apiVersion: string): DeepReadonly<JSONSchemaProps> | undefined =>
      crd.spec.versions.find((v) => `${group}/${v.name}` === apiVersion)?.schema?.openAPIV3Schema;
    const raw = this.storageOf(crd, {
      encode: (obj: KubeObject) => encodeValue(unstructuredOrder(structuredClone(obj)) as KubeObject, 'application/json'),
      decode: (data: string) => {
        // Read in the version it was written in, with that version's defaults; converted above.
        const obj = decodeValue(data);
        const schema = schemaOf(obj.apiVersion ?? '') ?? schemaOf(`${group}/${storageVersion}`);
        if (schema !== undefined) applyDefaults(obj, schema);
        return unstructuredOrder(obj) as KubeObject;
      },
      unstructured: true,
    }, { newBookmark: (rv) => ({ apiVersion: `${group}/${storageVersion}`, kind: names.kind, metadata: { resourceVersion: rv } }),
      groupResource: { group, resource: names.plural } }, cached);
    const converter = newConverter(crd, this.opts.webhookClients ?? (this.defaultClients ??= new ClientManager()));
    const convert: ConvertFunc = async (objs, apiVersion) => {
      const out = await converter.convert(objs, apiVersion);
      // What the webhook returns is pruned to the target version's schema (schemaCoercingConverter).
      const schema = schemaOf(apiVersion);
      out.forEach((o, i) => { if (o !== objs[i]) prune(o, schema, true); });
      return out;
    };
    this.converters.set(`${group}/${names.kind}`, convert);
    const keyPrefix = this.keyPrefix(crd);
    const stores = new Map<string, ResourceStore>();
    for (const v of crd.spec.versions) {
      if (!v.served && v.name !== storageVersion) continue;
      const apiVersion = `${group}/${v.name}`;
      stores.set(v.name, new Store<KubeObject>({
        definition: customResourceDefinition(crd, v.name),
        storage: newConvertingStorage(raw, convert, apiVersion, `${group}/${storageVersion}`),
        keyPrefix, listApiVersion: apiVersion,
      }));
    }
    return stores;
  }

  /** The backend of one custom resource: transforming when an encryption rule covers it. */
  private backendFor(group: string, plural: string): Backend {
    return transformingBackend(this.opts.backend, this.opts.transformerFor?.(`${plural}.${group}`));
  }

  private noneStore(crd: DeepReadonly<CRD>, storageVersion: string, cached: boolean): ResourceStore {
    const { group, names } = crd.spec;
    this.converters.delete(`${group}/${names.kind}`);
    const apiVersion = `${group}/${storageVersion}`;
    const schema = crd.spec.versions.find((v) => v.name === storageVersion)?.schema?.openAPIV3Schema;
    const storage = this.storageOf(crd, {
      encode: (obj: KubeObject) => encodeValue(unstructuredOrder(structuredClone(obj)) as KubeObject, 'application/json'),
      decode: (data: string) => {
        const obj = decodeValue(data);
        // Conversion None: an object stored in an older storage version only changes apiVersion.
        obj.apiVersion = apiVersion;
        if (schema !== undefined) applyDefaults(obj, schema);
        return unstructuredOrder(obj) as KubeObject;
      },
      unstructured: true,
    }, { newBookmark: (rv) => ({ apiVersion, kind: names.kind, metadata: { resourceVersion: rv } }), groupResource: { group, resource: names.plural } }, cached);
    return new Store<KubeObject>({
      definition: customResourceDefinition(crd, storageVersion), storage, keyPrefix: this.keyPrefix(crd), listApiVersion: apiVersion,
    });
  }

  private build(): Built {
    const scheme = new Scheme();
    const schemas = new Map<string, SchemaNode>();
    const groups = new Map<string, { version: string; resources: ResourceInstall[] }[]>();
    const served: ServedResource[] = [];
    const stores = new Map<string, ServedStore>();
    const terminating = new Set<string>();
    const crds = [...this.crds.values()].filter(isServable).sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    for (const crd of crds) {
      const { group, names } = crd.spec;
      const storage = crd.spec.versions.find((v) => v.storage);
      if (storage === undefined) continue;
      // A Webhook-conversion CRD has a Store per version; None serves every version from one.
      const perVersion = crd.spec.conversion?.strategy === 'Webhook' ? this.versionStores(crd, storage.name, true) : undefined;
      const store = perVersion?.get(storage.name) ?? this.noneStore(crd, storage.name, true);
      // The conversion too: objects stored in an older version are read through it.
      const conversion = perVersion === undefined ? '' : `/${JSON.stringify(crd.spec.conversion ?? null)}`;
      const versionConverter = perVersion === undefined ? undefined : crdVersionConverter(crd, () => this.converters.get(`${group}/${names.kind}`));
      stores.set(crd.metadata.name ?? '', { store, identity: `${crd.metadata.uid ?? ''}/${storage.name}/${crd.spec.scope}${conversion}` });
      if (crd.metadata.deletionTimestamp !== undefined) terminating.add(crd.metadata.name ?? '');
      const versions = crd.spec.versions.filter((v) => v.served).map((v) => v.name).sort(compareKubeAwareVersions);
      scheme.setVersionPriority(group, versions);
      const listKind = names.listKind ?? `${names.kind}List`;
      const hub = { group, version: storage.name };
      scheme.addKnownKinds(hub, [names.kind, listKind]);
      for (const name of versions) {
        const v = crd.spec.versions.find((x) => x.name === name);
        if (v === undefined) continue;
        const vStore = perVersion?.get(name) ?? store;
        const statusView = vStore.definition.statusStrategy !== undefined ? vStore.withStrategy(vStore.definition.statusStrategy) : undefined;
        const gv = { group, version: name };
        // Objects of a per-version Store are already in the served version: it is their hub.
        const hubOf = perVersion === undefined ? hub : gv;
        scheme.addKnownKinds(gv, [names.kind, listKind]);
        const schema = v.schema?.openAPIV3Schema;
        if (schema !== undefined) {
          schemas.set(gvkKey({ ...gv, kind: names.kind }), toDecodeSchema(schema));
          scheme.addDefaulter({ ...gv, kind: names.kind }, (o) => applyDefaults(o, schema));
        }
        const def = customResourceDefinition(crd, name);
        // Server-side apply types a custom resource's fields with its published schema (kube's
        // typeconverter from the CRD): without it every field would be deduced, and FieldsV1 would
        // mark declared objects such as spec with ".".
        const fieldsSchema = {
          ...(schema === undefined ? {} : { fieldsSchema: kindSchema(schema, { ...gv, kind: names.kind }) }),
          ...(versionConverter === undefined ? {} : { versionConverter }),
        };
        const installs: ResourceInstall[] = [{ resource: names.plural, kind: names.kind, storage: vStore, definition: def, hubVersion: hubOf, ...fieldsSchema }];
        const subs: ServedSubresource[] = [];
        if (v.subresources?.status !== undefined && statusView !== undefined) {
          const view: Getter & Updater = { get: statusView.get.bind(statusView), update: statusView.update.bind(statusView) };
          installs.push({ resource: names.plural, subresource: 'status', kind: names.kind, definition: def, hubVersion: hubOf, storage: view, ...fieldsSchema });
          subs.push({ name: 'status', kind: names.kind, verbs: ['get', 'patch', 'update'] });
        }
        if (def.scale !== undefined) {
          installs.push({ resource: names.plural, subresource: 'scale', kind: 'Scale', definition: def, hubVersion: hubOf,
            kindGroupVersion: SCALE_GROUP_VERSION, storage: scaleStorage(vStore, def.scale, { validateScale: false }) });
          subs.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] });
        }
        const list = groups.get(group) ?? [];
        let entry = list.find((e) => e.version === name);
        if (entry === undefined) { entry = { version: name, resources: [] }; list.push(entry); }
        entry.resources.push(...installs);
        groups.set(group, list);
        if (schema !== undefined && isEstablished(crd)) {
          served.push({
            group, version: name, resource: names.plural, kind: names.kind, namespaced: crd.spec.scope === 'Namespaced',
            verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
            subresources: subs, definition: definitionName(group, name, names.kind), strategicMergePatch: false, customResource: true,
            schemas: publishedSchemas(schema, { ...gv, kind: names.kind }, listKind),
            revision: `${crd.metadata.uid ?? ''}/${crd.metadata.generation ?? 0}`,
            publishedSchemas: (format, docs) => customResourceDefinitions({
              schema, gvk: { ...gv, kind: names.kind }, plural: names.plural, listKind,
              selectableFields: (v.selectableFields ?? []).map((f) => f.jsonPath),
              preserveUnknownFields: crd.spec.preserveUnknownFields === true,
            }, format, docs),
          });
        }
      }
    }
    // A CRD no longer served (deleted, or its names no longer accepted): its cache stops.
    const names = new Set(crds.map((c) => c.metadata.name ?? ''));
    for (const [name, s] of this.storages) {
      if (names.has(name)) continue;
      s.owned.release();
      this.storages.delete(name);
    }
    const installs: APIGroupInstall[] = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, versions]) => ({ group, versions: versions.sort((a, b) => compareKubeAwareVersions(a.version, b.version)) }));
    const deps: HandlerDeps = {
      scheme, admission: this.opts.admission, minRequestTimeoutSeconds: this.opts.minRequestTimeoutSeconds,
      openWatches: this.opts.openWatches, strategicMergePatch: false,
      convertObject: async (obj, gv) => {
        const convert = this.converters.get(`${gv.group}/${obj.kind ?? ''}`);
        if (convert === undefined) return scheme.convertToVersion(obj, gv);
        const [out] = await convert([obj], `${gv.group}/${gv.version}`);
        if (out === undefined) throw new Error('the conversion returned no object');
        return out;
      },
      decodeBody: (raw, format, gvk, directive) => {
        const schema = schemas.get(gvkKey(gvk));
        return decodeBody(raw, format, gvk, directive, { schema: schema ?? null });
      },
    };
    const installer = new APIInstaller(deps, installs);
    // Discovery lists only established CRDs; names-accepted ones are already served.
    const establishedGroups = new Set(crds.filter(isEstablished).map((c) => c.spec.group));
    const discovery = installer.discovery.filter((g) => establishedGroups.has(g.name));
    installer.discovery.splice(0, installer.discovery.length, ...discovery);
    return { installer, served, stores, terminating };
  }
}
