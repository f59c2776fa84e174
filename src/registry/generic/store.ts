// The generic Store: create/get/list/update/delete/deletecollection/watch for any resource,
// driven by its ResourceDefinition (registry/generic/registry/store.go). It owns the order
// of the steps; strategies own what differs per resource.
// Counterpart of k8s.io/apiserver/pkg/registry/generic/registry/store.go.
import {
  isNotFound, newBadRequest, newConflict, newInternalError, newInvalid, newNotFound,
  OPTIMISTIC_LOCK_MESSAGE,
} from '../../apimachinery/errors/status-error.ts';
import { invalid, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { DeleteOptions, KubeList, KubeObject, Status } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { checkDeadline } from '../../apimachinery/request/deadline.ts';
import type { GroupResource } from '../../apimachinery/schema/group-version.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import { validateObjectMeta, validateObjectMetaUpdate, validatePathSegmentName } from '../../apimachinery/validation/object-meta.ts';
import { goQuote } from '../../apimachinery/goformat/index.ts';
import { dropEmptyMetaCollections } from '../../apimachinery/meta/object-meta-json.ts';
import type { Interface as Storage } from '../../storage/interfaces.ts';
import type {
  CreateOptions, GetOptions, ListOptions, UpdatedObjectInfo, UpdateOptions, ValidateObjectFunc, ValidateObjectUpdateFunc,
} from '../rest/capabilities.ts';
import type { DeepReadonly, FinishFunc, ResourceDefinition, ResourceStore, Strategy } from '../rest/strategy.ts';
import { nameMismatch, namespaceMismatch } from '../rest/object-target.ts';
import { generateName, newUID, nowRFC3339 } from './names.ts';
import { deleteObject } from './delete.ts';
import { DryRunnableStorage } from './dryrun.ts';
import { buildPredicate } from './predicate.ts';
import { checkUIDPrecondition, interpretListError, interpretStorageError, unknownError } from './storage-errors.ts';
import { parseUintError } from '../../storage/versioner.ts';

export interface StoreConfig<T extends KubeObject> {
  readonly definition: ResourceDefinition<T>;
  readonly storage: Storage;
  /** e.g. `/registry/configmaps`: objects live at `<prefix>/<namespace>/<name>`. */
  readonly keyPrefix: string;
  /** apiVersion and kind of list objects returned by list (the hub version's list kind). */
  readonly listApiVersion: string;
  /** Which strategy this endpoint uses: the main resource's or a subresource's (status). */
  readonly strategy?: Strategy<T>;
  /** The resource errors name (NotFound, AlreadyExists, Conflict); the definition's by default. */
  readonly qualifiedResource?: GroupResource;
}

const ro = <T>(v: T): DeepReadonly<T> => v as DeepReadonly<T>;
/** kube's deleteCollectionPageSize. */
const DELETE_COLLECTION_PAGE_SIZE = 10_000;

/**
 * The Versioner's ObjectResourceVersion: "" and "0" are 0, any other decimal uint64 its value
 * ("007" is 7); anything else rejects with the bare strconv error, which kube answers as a 500.
 */
function objectResourceVersion(obj: KubeObject): bigint {
  const rv = obj.metadata.resourceVersion ?? '';
  if (rv === '') return 0n;
  const err = parseUintError(rv);
  if (err !== undefined) throw unknownError(err);
  return BigInt(rv);
}
const asT = <T extends KubeObject>(v: KubeObject): T => v as T;

export class Store<T extends KubeObject> implements ResourceStore<T> {
  readonly definition: ResourceDefinition<T>;
  readonly qualifiedResource: GroupResource;
  private readonly storage: DryRunnableStorage;
  private readonly prefix: string;
  private readonly strategy: Strategy<T>;
  private readonly listApiVersion: string;

  constructor(cfg: StoreConfig<T>) {
    this.definition = cfg.definition;
    this.storage = new DryRunnableStorage(cfg.storage);
    this.prefix = cfg.keyPrefix;
    this.strategy = cfg.strategy ?? cfg.definition.strategy;
    this.listApiVersion = cfg.listApiVersion;
    this.qualifiedResource = cfg.qualifiedResource ?? { group: cfg.definition.group, resource: cfg.definition.resource };
  }

  /**
   * A view of the same objects through another strategy (the status subresource), or served as
   * another resource (events.k8s.io events over core events), which errors then name.
   */
  withStrategy(strategy: Strategy<T>, qualifiedResource: GroupResource = this.qualifiedResource): Store<T> {
    return new Store({ definition: this.definition, storage: this.storage.storage, keyPrefix: this.prefix,
      listApiVersion: this.listApiVersion, strategy, qualifiedResource });
  }

  /** NamespaceKeyFunc / NoNamespaceKeyFunc: rejects with 400 for a missing namespace or a name no path segment can hold. */
  keyFor(ctx: RequestContext, name: string): string {
    if (this.definition.namespaced && ctx.namespace === '') throw newBadRequest('Namespace parameter required.');
    if (name === '') throw newBadRequest('Name parameter required.');
    const msgs = validatePathSegmentName(name, false);
    if (msgs.length > 0) throw newBadRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
    return this.definition.namespaced ? `${this.prefix}/${ctx.namespace}/${name}` : `${this.prefix}/${name}`;
  }

  private listKey(ctx: RequestContext): string {
    return this.definition.namespaced && ctx.namespace !== '' ? `${this.prefix}/${ctx.namespace}/` : `${this.prefix}/`;
  }

  async get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject> {
    const key = this.keyFor(ctx, name);
    try {
      const obj = await this.storage.get(key, {
        ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}),
        ...(opts.shared === true ? { shared: true } : {}),
      });
      if (obj === undefined) throw newNotFound(this.qualifiedResource, name);
      return obj;
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, name, 'get', opts.resourceVersion);
    }
  }

  async list(ctx: RequestContext, opts: ListOptions): Promise<KubeList> {
    const predicate = buildPredicate(this.definition, opts);
    try {
      const res = await this.storage.getList(this.listKey(ctx), {
        predicate, recursive: true,
        ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}),
        ...(opts.resourceVersionMatch !== undefined ? { resourceVersionMatch: opts.resourceVersionMatch } : {}),
        ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
        ...(opts.continue !== undefined ? { continue: opts.continue } : {}),
      });
      const metadata: KubeList['metadata'] = { resourceVersion: res.resourceVersion };
      if (res.continue !== undefined && res.continue !== '') metadata.continue = res.continue;
      if (res.remainingItemCount !== undefined) metadata.remainingItemCount = res.remainingItemCount;
      return { apiVersion: this.listApiVersion, kind: `${this.definition.kind}List`, metadata, items: res.items };
    } catch (err) {
      throw interpretListError(err, this.qualifiedResource, opts.resourceVersion);
    }
  }

  async create(ctx: RequestContext, input: KubeObject, validate: ValidateObjectFunc | undefined,
    opts: CreateOptions): Promise<KubeObject> {
    const obj = asT<T>(input);
    this.beforeCreate(ctx, obj);
    const finish = await this.definition.hooks?.beginCreate?.(ctx, obj, opts.dryRun);
    let ok = false;
    try {
      this.validateCreate(ctx, obj);
      if (validate !== undefined) await validate(obj);
      const name = obj.metadata.name ?? '';
      const key = this.keyFor(ctx, name);
      let out: KubeObject;
      try {
        // A request past its deadline has been answered 504: it must not write.
        if (!opts.dryRun) checkDeadline(ctx);
        out = await this.storage.create(key, obj, this.definition.ttlSeconds, opts.dryRun);
      } catch (err) {
        throw interpretStorageError(err, this.qualifiedResource, name, 'create');
      }
      ok = true;
      return out;
    } finally {
      await finish?.(ok);
    }
  }

  private beforeCreate(ctx: RequestContext, obj: T): void {
    // kube decodes into typed structs: the zero values are there before the strategy looks.
    this.definition.goZeroValues?.(obj);
    const meta = obj.metadata;
    dropEmptyMetaCollections(meta);
    this.checkNamespace(ctx, obj);
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== '') {
      throw newInternalError(new Error('resourceVersion should not be set on objects to be created'));
    }
    this.strategy.prepareForCreate(ctx, obj);
    meta.creationTimestamp = nowRFC3339();
    meta.uid = newUID();
    if ((meta.name === undefined || meta.name === '') && meta.generateName !== undefined && meta.generateName !== '') {
      meta.name = generateName(meta.generateName);
    }
  }

  private validateCreate(ctx: RequestContext, obj: T): void {
    const name = obj.metadata.name ?? '';
    let errs = this.strategy.validate(ctx, ro(obj));
    if (errs.length === 0) errs = validateObjectMeta(obj.metadata, { namespaced: this.definition.namespaced, nameFn: validatePathSegmentName });
    if (errs.length > 0) throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, name, errs);
    for (const w of this.strategy.warningsOnCreate?.(ctx, ro(obj)) ?? []) ctx.warnings.addWarning(w);
    this.strategy.canonicalize?.(obj);
    this.definition.goZeroValues?.(obj);
    dropEmptyMetaCollections(obj.metadata);
  }

  /** The namespace in the body must match the request's; cluster-scoped objects have none. */
  private checkNamespace(ctx: RequestContext, obj: T): void {
    const meta = obj.metadata;
    if (!this.definition.namespaced) {
      delete meta.namespace;
      return;
    }
    if (meta.namespace === undefined || meta.namespace === '') meta.namespace = ctx.namespace;
    else if (meta.namespace !== ctx.namespace) {
      throw namespaceMismatch();
    }
  }

  async update(ctx: RequestContext, name: string, info: UpdatedObjectInfo, validateCreate: ValidateObjectFunc | undefined,
    validateUpdate: ValidateObjectUpdateFunc | undefined, forceAllowCreate: boolean, opts: UpdateOptions):
    Promise<{ object: KubeObject; created: boolean }> {
    const key = this.keyFor(ctx, name);
    let created = false;
    let finish: FinishFunc | undefined;
    let ok = false;
    try {
      const out = await this.storage.guaranteedUpdate(key, {
        ignoreNotFound: true,
        ...(this.definition.ttlSeconds !== undefined ? { ttlSeconds: this.definition.ttlSeconds } : {}),
        // The stored object is only read below (the request's object starts as a copy of it).
        shared: true,
        tryUpdate: async (existing) => {
          if (finish !== undefined) { await finish(false); finish = undefined; }
          checkUIDPrecondition(key, info.preconditions, existing, this.qualifiedResource, name);
          if (existing === undefined) {
            if (!this.strategy.allowCreateOnUpdate && !forceAllowCreate) {
              throw newNotFound(this.qualifiedResource, name);
            }
            const obj = asT<T>(await info.updatedObject(ctx, undefined));
            created = true;
            this.checkName(obj, name);
            // Any version parses here; storage drops it (PrepareObjectForStorage), so the create goes ahead.
            objectResourceVersion(obj);
            delete obj.metadata.resourceVersion;
            this.beforeCreate(ctx, obj);
            finish = await this.definition.hooks?.beginCreate?.(ctx, obj, opts.dryRun);
            this.validateCreate(ctx, obj);
            if (validateCreate !== undefined) await validateCreate(obj);
            if (!opts.dryRun) checkDeadline(ctx);
            return obj;
          }
          created = false;
          const old = asT<T>(existing);
          const oldCopy = structuredClone(existing);
          const obj = asT<T>(await info.updatedObject(ctx, oldCopy));
          this.checkName(obj, name);
          const rv = objectResourceVersion(obj);
          if (rv === 0n) {
            // kube names the resource where the kind belongs and prints the parsed version (0).
            if (!this.strategy.allowUnconditionalUpdate) {
              throw newInvalid({ group: this.definition.group, kind: this.definition.resource }, name,
                [invalid('metadata.resourceVersion', 0, 'must be specified for an update')]);
            }
            // Unconditional ("" or "0"): the update applies to whatever is stored now.
            obj.metadata.resourceVersion = old.metadata.resourceVersion ?? '';
          } else if (rv !== objectResourceVersion(old)) {
            throw newConflict(this.qualifiedResource, name, OPTIMISTIC_LOCK_MESSAGE);
          }
          this.beforeUpdate(ctx, obj, old);
          finish = await this.definition.hooks?.beginUpdate?.(ctx, obj, ro(old), opts.dryRun);
          this.validateUpdateOf(ctx, obj, old);
          if (validateUpdate !== undefined) await validateUpdate(obj, old);
          if (opts.dryRun) return obj;
          obj.metadata.resourceVersion = old.metadata.resourceVersion ?? '';
          checkDeadline(ctx);
          return obj;
        },
      }, opts.dryRun);
      ok = true;
      return { object: opts.dryRun ? out : await this.deleteIfFinalized(ctx, name, out), created };
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, name, 'update');
    } finally {
      await finish?.(ok);
    }
  }

  private checkName(obj: T, name: string): void {
    const bodyName = obj.metadata.name ?? '';
    if (bodyName === '') { obj.metadata.name = name; return; }
    if (bodyName !== name) {
      throw nameMismatch(bodyName, name);
    }
  }

  private beforeUpdate(ctx: RequestContext, obj: T, old: T): void {
    // As on create: an update that leaves out an empty struct changes nothing (generation stays).
    this.definition.goZeroValues?.(obj);
    dropEmptyMetaCollections(obj.metadata);
    this.checkNamespace(ctx, obj);
    const meta = obj.metadata;
    const oldMeta = old.metadata;
    if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation; else delete meta.generation;
    this.strategy.prepareForUpdate(ctx, obj, ro(old));
    if (meta.uid === undefined || meta.uid === '') { if (oldMeta.uid !== undefined) meta.uid = oldMeta.uid; }
    if (oldMeta.creationTimestamp !== undefined && oldMeta.creationTimestamp !== null) meta.creationTimestamp = oldMeta.creationTimestamp;
    if (oldMeta.deletionTimestamp !== undefined) meta.deletionTimestamp = oldMeta.deletionTimestamp;
    if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
      meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    }
  }

  private validateUpdateOf(ctx: RequestContext, obj: T, old: T): void {
    const errs: FieldError[] = [
      ...validateObjectMetaUpdate(obj.metadata, old.metadata),
      ...validateObjectMeta(obj.metadata, { namespaced: this.definition.namespaced, nameFn: validatePathSegmentName }),
      ...this.strategy.validateUpdate(ctx, ro(obj), ro(old)),
    ];
    if (errs.length > 0) throw newInvalid({ group: this.definition.group, kind: this.definition.kind }, obj.metadata.name ?? '', errs);
    for (const w of this.strategy.warningsOnUpdate?.(ctx, ro(obj), ro(old)) ?? []) ctx.warnings.addWarning(w);
    this.strategy.canonicalize?.(obj);
    this.definition.goZeroValues?.(obj);
    dropEmptyMetaCollections(obj.metadata);
  }

  /** An object marked for deletion whose last finalizer was just removed goes away now. */
  private async deleteIfFinalized(ctx: RequestContext, name: string, obj: KubeObject): Promise<KubeObject> {
    const meta = obj.metadata;
    if (meta.deletionTimestamp === undefined || (meta.finalizers?.length ?? 0) > 0) return obj;
    if ((meta.deletionGracePeriodSeconds ?? 0) !== 0) return obj;
    if (this.definition.deletesDuringUpdate?.(obj as T) === false) return obj;
    try {
      const preconditions = meta.resourceVersion !== undefined ? { resourceVersion: meta.resourceVersion } : {};
      return await this.storage.delete(this.keyFor(ctx, name), { preconditions }, false);
    } catch {
      return obj; // someone wrote in between; their write decides
    }
  }

  /**
   * Writes `mutate(current)` with compare-and-swap, past the strategy and metadata checks: for
   * server-side state changes (a namespace turning Terminating) that clients may not make.
   */
  async updateUnchecked(ctx: RequestContext, name: string, mutate: (current: KubeObject) => KubeObject,
    opts: { readonly dryRun: boolean }): Promise<KubeObject> {
    const key = this.keyFor(ctx, name);
    try {
      return await this.storage.guaranteedUpdate(key, {
        ignoreNotFound: false,
        tryUpdate: (cur) => {
          if (cur === undefined) throw newNotFound(this.qualifiedResource, name);
          return mutate(cur);
        },
      }, opts.dryRun);
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, name, 'update');
    }
  }

  async delete(ctx: RequestContext, name: string, validate: ValidateObjectFunc | undefined, opts: DeleteOptions):
    Promise<{ object: KubeObject | Status; deletedImmediately: boolean }> {
    return deleteObject(this, this.storage, ctx, name, validate, opts);
  }

  async deleteCollection(ctx: RequestContext, validate: ValidateObjectFunc | undefined, opts: DeleteOptions,
    listOpts: ListOptions): Promise<KubeList> {
    // Listed in pages as kube lists them (10000 items, or the one page the caller's limit asks for):
    // a paginated list is what a watch cache that cannot list sends to storage.
    const limit = listOpts.limit ?? 0;
    const hasLimit = limit > 0;
    let page = await this.list(ctx, { ...listOpts, resourceVersion: '', limit: hasLimit ? limit : DELETE_COLLECTION_PAGE_SIZE, continue: '' });
    const list = page;
    const items = [...page.items];
    while (!hasLimit && (page.metadata.continue ?? '') !== '') {
      const { resourceVersionMatch: _match, ...next } = listOpts;
      page = await this.list(ctx, { ...next, resourceVersion: '', limit: DELETE_COLLECTION_PAGE_SIZE, continue: page.metadata.continue ?? '' });
      items.push(...page.items);
    }
    const deleted: KubeObject[] = [];
    for (const item of items) {
      const itemCtx: RequestContext = { ...ctx, namespace: item.metadata.namespace ?? '' };
      try {
        // Each item gets its own copy of the options (a delete may complete them), as kube's DeepCopy.
        const res = await this.delete(itemCtx, item.metadata.name ?? '', validate, { ...opts });
        if (res.object.kind !== 'Status') deleted.push(res.object as KubeObject);
        else deleted.push(item);
      } catch (err) {
        if (!isNotFound(err)) throw err; // deleted concurrently: fine
      }
    }
    return { ...list, items: deleted };
  }

  async watch(ctx: RequestContext, opts: ListOptions): Promise<Watch> {
    const predicate = buildPredicate(this.definition, opts);
    try {
      return await this.storage.watch(this.listKey(ctx), {
        predicate, recursive: true, signal: ctx.signal,
        ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}),
        ...(opts.allowWatchBookmarks !== undefined ? { allowBookmarks: opts.allowWatchBookmarks } : {}),
        ...(opts.sendInitialEvents !== undefined ? { sendInitialEvents: opts.sendInitialEvents } : {}),
      });
    } catch (err) {
      throw interpretStorageError(err, this.qualifiedResource, '', 'watch', opts.resourceVersion);
    }
  }
}
