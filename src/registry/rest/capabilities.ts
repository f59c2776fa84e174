// The capabilities a REST storage may implement, one or two members each (rest.go). The
// installer serves a verb only when the storage has the capability.
// Counterpart of k8s.io/apiserver/pkg/registry/rest/rest.go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeleteOptions, KubeList, KubeObject, Status } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { GroupVersion } from '../../apimachinery/schema/group-version.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import type { ResourceVersionMatch } from '../../storage/interfaces.ts';

/** Admission or other checks run on the final object just before it is written. */
export type ValidateObjectFunc = (obj: KubeObject) => void | Promise<void>;
export type ValidateObjectUpdateFunc = (obj: KubeObject, old: KubeObject) => void | Promise<void>;

export interface GetOptions {
  readonly resourceVersion?: string;
  /** The caller only reads the object, which may then be shared and frozen (the watch cache's). */
  readonly shared?: boolean;
}

export interface ListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
  readonly limit?: number;
  readonly continue?: string;
  readonly allowWatchBookmarks?: boolean;
  readonly sendInitialEvents?: boolean;
  readonly timeoutSeconds?: number;
}

export interface CreateOptions { readonly dryRun: boolean; readonly fieldManager?: string }
export interface UpdateOptions { readonly dryRun: boolean; readonly fieldManager?: string }

/** Computes the new object from the stored one (the body of a PUT, or a patch applied to it). */
export interface UpdatedObjectInfo {
  /** The name of the object in the request body ('' when unknown). */
  readonly preconditionsName?: string;
  /**
   * Checked against the stored object before updatedObject runs (DefaultUpdatedObjectInfo's
   * Preconditions: the UID of a PUT body). A mismatch rejects with 409 Conflict.
   */
  readonly preconditions?: { readonly uid: string };
  updatedObject(ctx: RequestContext, old: KubeObject | undefined): Promise<KubeObject> | KubeObject;
}

export interface Getter {
  /** Rejects with a StatusError whose reason is NotFound if the object does not exist. */
  get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject>;
}
export interface Lister {
  /** Rejects with BadRequest for bad selectors, Expired for a compacted continue token. */
  list(ctx: RequestContext, opts: ListOptions): Promise<KubeList>;
}
export interface Creater {
  /** Rejects with AlreadyExists, Invalid (422 with causes), or what `validate` throws. */
  create(ctx: RequestContext, obj: KubeObject, validate: ValidateObjectFunc | undefined, opts: CreateOptions): Promise<KubeObject>;
}
export interface Updater {
  /** Rejects with NotFound (unless the strategy allows create on update), Conflict, Invalid. */
  update(ctx: RequestContext, name: string, info: UpdatedObjectInfo, validateCreate: ValidateObjectFunc | undefined,
    validateUpdate: ValidateObjectUpdateFunc | undefined, forceAllowCreate: boolean, opts: UpdateOptions):
    Promise<{ object: KubeObject; created: boolean }>;
}
export interface GracefulDeleter {
  /** Rejects with NotFound, or Conflict when preconditions fail. */
  delete(ctx: RequestContext, name: string, validate: ValidateObjectFunc | undefined, opts: DeleteOptions):
    Promise<{ object: KubeObject | Status; deletedImmediately: boolean }>;
}
export interface CollectionDeleter {
  deleteCollection(ctx: RequestContext, validate: ValidateObjectFunc | undefined, opts: DeleteOptions,
    listOpts: ListOptions): Promise<KubeList>;
}
export interface Watcher {
  /** Rejects with Expired (410) for a too old resourceVersion. */
  watch(ctx: RequestContext, opts: ListOptions): Promise<Watch>;
}

/** rest.StandardStorage: every verb of a resource with a generic store. */
export interface StandardStorage extends Getter, Lister, Creater, Updater, GracefulDeleter, CollectionDeleter, Watcher {}

/**
 * Serves a subresource by handling the HTTP exchange itself (pods/exec, pods/log, nodes/proxy):
 * rest.Connecter. `connectMethods` are the HTTP methods it takes.
 */
export interface Connecter {
  readonly connectMethods: readonly string[];
  /** Rejects with a StatusError before anything is written; otherwise answers on `res`. */
  connect(ctx: RequestContext, name: string, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void>;
}

/**
 * rest.GroupVersionAcceptor: a storage that takes request bodies in group versions other than its
 * endpoint's kind (pods/eviction takes policy/v1 and policy/v1beta1 Evictions on every version).
 */
export interface GroupVersionAcceptor {
  acceptsGroupVersion(gv: GroupVersion): boolean;
}

const has = (s: object, m: string): boolean => m in s && typeof (s as Record<string, unknown>)[m] === 'function';
export const isGetter = (s: object): s is Getter => has(s, 'get');
export const isLister = (s: object): s is Lister => has(s, 'list');
export const isCreater = (s: object): s is Creater => has(s, 'create');
export const isUpdater = (s: object): s is Updater => has(s, 'update');
export const isGracefulDeleter = (s: object): s is GracefulDeleter => has(s, 'delete');
export const isCollectionDeleter = (s: object): s is CollectionDeleter => has(s, 'deleteCollection');
export const isWatcher = (s: object): s is Watcher => has(s, 'watch');
export const isConnecter = (s: object): s is Connecter => has(s, 'connect');
export const isGroupVersionAcceptor = (s: object): s is GroupVersionAcceptor => has(s, 'acceptsGroupVersion');
