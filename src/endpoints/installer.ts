// Turns API groups into served endpoints: resource routes for every verb the storage
// supports, and the discovery documents describing them. Routing is a map lookup keyed by
// the parsed RequestInfo, so every route can be found by grepping its resource name.
// Counterpart of k8s.io/apiserver/pkg/endpoints/installer.go and
// k8s.io/apiserver/pkg/endpoints/groupversion.go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../apimachinery/meta/types.ts';
import type { GroupVersion } from '../apimachinery/schema/group-version.ts';
import type { SchemaNode } from '../apimachinery/openapi/index.ts';
import type { AsyncVersionConverter } from '../apimachinery/managedfields/index.ts';
import {
  isCollectionDeleter, isConnecter, isCreater, isGetter, isGracefulDeleter, isLister, isUpdater, isWatcher,
} from '../registry/rest/capabilities.ts';
import type { ResourceDefinition } from '../registry/rest/strategy.ts';
import { deprecationWarning } from './deprecation/deprecation.ts';
import { storageVersionHash } from './discovery/legacy.ts';
import type { DiscoveryGroup, DiscoveryResource } from './discovery/types.ts';
import { handleCreate } from './handlers/create.ts';
import { handleDelete, handleDeleteCollection } from './handlers/delete.ts';
import { handleGet } from './handlers/get.ts';
import { handleList } from './handlers/list.ts';
import { handlePatch, requestPatchType } from './handlers/patch.ts';
import { isRestfulRoute, type HandlerDeps, type ResourceEndpoint, type ResourceHandler } from './handlers/scope.ts';
import { handleUpdate } from './handlers/update.ts';
import { admitConnect, registerEndpoint } from './handlers/admission.ts';
import { handleWatch } from './handlers/watch.ts';
import { ALL_MEDIA_TYPES, checkRouteAccept, MEDIA_TYPES } from './negotiation.ts';
import type { RequestState } from './request/state.ts';

/** One resource or subresource to install in a group version. */
export interface ResourceInstall {
  readonly resource: string;
  readonly subresource?: string;
  readonly kind: string;
  readonly storage: object;
  readonly definition: ResourceDefinition<KubeObject>;
  /** The version objects are stored in and the Store works in (the hub): bodies convert to it. */
  readonly hubVersion: GroupVersion;
  /** When a subresource returns a kind of another group (autoscaling/v1 Scale). */
  readonly kindGroupVersion?: GroupVersion;
  /** Verbs the storage's capabilities imply that are not served (namespaces/finalize: patch). */
  readonly omitVerbs?: readonly string[];
  /** The schema server-side apply types fields with (a custom resource's); default: the built-in definition. */
  readonly fieldsSchema?: SchemaNode;
  /** How the kind converts between its versions for server-side apply (a CRD's conversion webhook). */
  readonly versionConverter?: AsyncVersionConverter;
  /** A subresource kind's Go zero values (its own shape, not the resource's). */
  readonly subresourceZeroValues?: (obj: KubeObject) => void;
}

export interface APIGroupInstall {
  readonly group: string;
  /** Most preferred first. */
  readonly versions: readonly { readonly version: string; readonly resources: readonly ResourceInstall[] }[];
}

const VERB_HANDLERS: Readonly<Record<string, ResourceHandler>> = {
  get: handleGet, list: handleList, watch: handleWatch, create: handleCreate, update: handleUpdate,
  patch: handlePatch, delete: handleDelete, deletecollection: handleDeleteCollection,
};

const CONNECT_VERBS: Readonly<Record<string, string>> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

function verbsOf(storage: object, subresource: boolean, disabled: readonly string[]): string[] {
  if (isConnecter(storage)) return storage.connectMethods.map((m) => CONNECT_VERBS[m] ?? '').filter((v) => v !== '').sort();
  const verbs: string[] = [];
  if (isCreater(storage)) verbs.push('create');
  if (isGracefulDeleter(storage) && !subresource) verbs.push('delete');
  if (isCollectionDeleter(storage) && !subresource) verbs.push('deletecollection');
  if (isGetter(storage)) verbs.push('get');
  if (isLister(storage) && !subresource) verbs.push('list');
  if (isUpdater(storage)) verbs.push('patch');
  if (isUpdater(storage)) verbs.push('update');
  if (isWatcher(storage) && !subresource) verbs.push('watch');
  return verbs.filter((v) => !disabled.includes(v));
}

const key = (group: string, version: string, resource: string, subresource: string): string =>
  `${group}/${version}/${resource}/${subresource}`;

export class APIInstaller {
  private readonly endpoints = new Map<string, ResourceEndpoint>();
  private readonly groupVersions = new Set<string>();
  readonly discovery: DiscoveryGroup[] = [];

  constructor(private readonly deps: HandlerDeps, groups: readonly APIGroupInstall[]) {
    for (const g of groups) this.install(g);
  }

  private install(g: APIGroupInstall): void {
    const versions = g.versions.map((v) => {
      this.groupVersions.add(`${g.group}/${v.version}`);
      const resources: DiscoveryResource[] = [];
      for (const r of v.resources) {
        const sub = r.subresource ?? '';
        const verbs = verbsOf(r.storage, sub !== '', [...(sub === '' ? r.definition.disabledVerbs ?? [] : []), ...r.omitVerbs ?? []]);
        const ep: ResourceEndpoint = {
          groupVersion: { group: g.group, version: v.version }, hubVersion: r.hubVersion, resource: r.resource, subresource: sub, kind: r.kind,
          kindGroupVersion: r.kindGroupVersion ?? { group: g.group, version: v.version },
          namespaced: r.definition.namespaced, storage: r.storage, definition: r.definition, verbs,
          ...(r.fieldsSchema !== undefined ? { fieldsSchema: r.fieldsSchema } : {}),
          ...(r.versionConverter !== undefined ? { versionConverter: r.versionConverter } : {}),
          ...(r.subresourceZeroValues !== undefined ? { subresourceZeroValues: r.subresourceZeroValues } : {}),
        };
        this.endpoints.set(key(g.group, v.version, r.resource, sub), ep);
        registerEndpoint(this.deps, ep);
        const d: DiscoveryResource = {
          name: sub === '' ? r.resource : `${r.resource}/${sub}`,
          singularName: sub === '' ? r.definition.singular : '',
          namespaced: r.definition.namespaced, kind: r.kind, verbs,
          ...(r.kindGroupVersion !== undefined ? { group: r.kindGroupVersion.group, version: r.kindGroupVersion.version } : {}),
          ...(sub === '' && r.definition.shortNames !== undefined ? { shortNames: r.definition.shortNames } : {}),
          ...(sub === '' && r.definition.categories !== undefined ? { categories: r.definition.categories } : {}),
          ...(sub === '' ? {
            storageVersionHash: storageVersionHash(r.hubVersion.group, r.hubVersion.version, r.kind),
          } : {}),
        };
        resources.push(d);
      }
      resources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return { group: g.group, version: v.version, resources };
    });
    this.discovery.push({ name: g.group, versions });
  }

  servesGroupVersion(group: string, version: string): boolean {
    return this.groupVersions.has(`${group}/${version}`);
  }

  endpoint(group: string, version: string, resource: string, subresource: string): ResourceEndpoint | undefined {
    return this.endpoints.get(key(group, version, resource, subresource));
  }

  allEndpoints(): IterableIterator<ResourceEndpoint> {
    return this.endpoints.values();
  }

  /**
   * Serves a resource request of a group version this installer has. Resolves false when the
   * group version is not ours (the next server in the chain may serve it).
   */
  async serve(req: IncomingMessage, res: ServerResponse, state: RequestState): Promise<boolean> {
    const info = state.info;
    if (info === undefined || !info.isResourceRequest) return false;
    if (!this.servesGroupVersion(info.apiGroup, info.apiVersion)) return false;
    const ep = this.endpoint(info.apiGroup, info.apiVersion, info.resource, info.subresource);
    if (ep === undefined || info.verb === '' || (info.name === '' && info.subresource !== '')) {
      throw notFoundStatus();
    }
    // Every route of a deprecated kind warns, whatever its outcome (kube wraps the handlers).
    const lifecycle = ep.subresource === '' ? ep.definition.lifecycle : undefined;
    if (lifecycle !== undefined) state.addWarning(deprecationWarning(ep.groupVersion, ep.kind, lifecycle));
    const verb = info.verb;
    if (!ep.namespaced && info.namespace !== '' && info.resource !== 'namespaces') throw notFoundStatus();
    if (ep.namespaced && info.namespace === '' && info.name !== '') throw notFoundStatus();
    if (isConnecter(ep.storage) && info.subresource !== '') {
      const method = req.method ?? 'GET';
      if (!ep.storage.connectMethods.includes(method === 'HEAD' ? 'GET' : method)) throw methodNotAllowed();
      const ctx = state.context();
      state.markRouted();
      await admitConnect(ep, this.deps, ctx, state.url.searchParams);
      await ep.storage.connect(ctx, info.name, req, res, state.url.searchParams);
      return true;
    }
    // Item verbs need a name and collection verbs must not have one (subresources are per item).
    const itemVerb = verb === 'get' || verb === 'update' || verb === 'patch' || verb === 'delete';
    if (info.subresource === '' && (itemVerb ? info.name === '' : info.name !== '' && verb !== 'watch')) {
      throw methodNotAllowed();
    }
    if (!ep.verbs.includes(verb)) throw methodNotAllowed();
    if (ep.namespaced && info.namespace === '' && verb !== 'list' && verb !== 'watch') throw methodNotAllowed();
    const handler = VERB_HANDLERS[verb];
    if (handler === undefined) throw methodNotAllowed();
    if (isRestfulRoute(this.deps)) {
      // go-restful's router: a PATCH's Content-Type (415), then the Accept header (406).
      if (verb === 'patch') requestPatchType(this.deps, req);
      checkRouteAccept(req.headers.accept, verb === 'list' || verb === 'watch' ? ALL_MEDIA_TYPES : MEDIA_TYPES);
    }
    state.markRouted();
    await handler(ep, this.deps, req, res, state);
    return true;
  }
}

function notFoundStatus(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 404,
    reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
}

function methodNotAllowed(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 405,
    reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', details: {} });
}
