// What a resource tells the generic Store: its names, strategy, field selectors and table
// columns (pkg/registry/<group>/<resource>/strategy.go + the printers, in one small object).
import type { FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { DeleteOptions, KubeObject, ObjectMeta } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { GroupResource } from '../../apimachinery/schema/group-version.ts';
import type { StandardStorage } from './capabilities.ts';

export type DeepReadonly<T> =
  T extends (infer E)[] ? readonly DeepReadonly<E>[] :
  T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/**
 * The steps of create, update and delete that differ per resource. `prepare*` get an object
 * the request owns and may mutate it; `validate*` must not (their argument is read-only).
 */
export interface Strategy<T extends KubeObject> {
  /** Clears fields a client may not set on create (status, usually) and sets server-owned ones. */
  prepareForCreate(ctx: RequestContext, obj: T): void;
  /** Returns every problem found; the Store wraps them in one 422 Invalid. */
  validate(ctx: RequestContext, obj: DeepReadonly<T>): FieldError[];
  /** Warnings sent to the client (Warning headers) for an accepted create. */
  warningsOnCreate?(ctx: RequestContext, obj: DeepReadonly<T>): string[];
  /** Normalizes the object after validation, before it is stored. */
  canonicalize?(obj: T): void;

  /** PUT of a missing object creates it. */
  readonly allowCreateOnUpdate: boolean;
  /** An update without metadata.resourceVersion is accepted (last write wins). */
  readonly allowUnconditionalUpdate: boolean;
  /**
   * GetResetFields: the paths (from the root) that prepareForUpdate resets, so that managedFields
   * never record a manager for them. Default: `status` on a main resource with a status
   * subresource, `spec` on the status subresource, none elsewhere.
   */
  readonly resetFields?: readonly (readonly string[])[];
  /** Copies fields this endpoint may not change from old (status on the main resource, spec on status). */
  prepareForUpdate(ctx: RequestContext, obj: T, old: DeepReadonly<T>): void;
  validateUpdate(ctx: RequestContext, obj: DeepReadonly<T>, old: DeepReadonly<T>): FieldError[];
  warningsOnUpdate?(ctx: RequestContext, obj: DeepReadonly<T>, old: DeepReadonly<T>): string[];

  /**
   * Graceful deletion: returns the grace period in seconds when the object must linger with a
   * deletionTimestamp (pods bound to a node); undefined or 0 deletes at once.
   */
  checkGracefulDelete?(ctx: RequestContext, obj: DeepReadonly<T>, options: DeleteOptions): number | undefined;
  /**
   * rest.GarbageCollectionDeleteStrategy: what a delete without propagationPolicy or
   * orphanDependents does to dependents. 'OrphanDependents' adds the orphan finalizer (core/v1
   * ReplicationControllers and batch/v1 Jobs, for backwards compatibility); absent means
   * 'DeleteDependents' (background deletion, no finalizer).
   */
  defaultGarbageCollectionPolicy?(ctx: RequestContext): 'OrphanDependents' | 'DeleteDependents';
}

export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

/** One column of `kubectl get` (metav1.TableColumnDefinition + the function that fills it). */
export interface TableColumn<T> {
  readonly name: string;
  readonly type: ColumnType;
  readonly format?: string;
  readonly description?: string;
  /** 0: shown by default; 1: only with -o wide. */
  readonly priority?: number;
  cell(obj: DeepReadonly<T>, now: number): string | number | boolean | null;
}

/**
 * The API lifecycle of a deprecated kind (prerelease-lifecycle-gen's APILifecycleDeprecated,
 * -Removed and -Replacement): every request to the resource carries a deprecation warning.
 */
export interface APILifecycle {
  /** The release that deprecated it, [major, minor]. */
  readonly deprecated: readonly [number, number];
  /** The release that stops serving it, when one is set. */
  readonly removed?: readonly [number, number];
  /** The kind to use instead. */
  readonly replacement?: { readonly group: string; readonly version: string; readonly kind: string };
}

/** Field selector values of an object: `metadata.name`, `status.phase`, ... */
export type FieldSet = Readonly<Record<string, string>>;

export interface ResourceDefinition<T extends KubeObject> {
  /** The API group; '' for core. */
  readonly group: string;
  readonly kind: string;
  /** Lowercase plural: the path segment. */
  readonly resource: string;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly namespaced: boolean;
  readonly strategy: Strategy<T>;
  /** Strategy of the status subresource, when the resource has one. */
  readonly statusStrategy?: Strategy<T>;
  /** Field selector values; defaults to metadata.name (and metadata.namespace when namespaced). */
  selectableFields?(obj: DeepReadonly<T>): FieldSet;
  /**
   * Selectable fields the watch cache indexes, for lists and watches selecting one value (kube's
   * Indexers and TriggerFunc: pods by spec.nodeName). The first also buckets watchers.
   */
  readonly watchCacheIndexes?: readonly string[];
  /**
   * kube registers no field label conversion for the kind, so a field selector is checked by the
   * default one (metadata.name and metadata.namespace only, `"x" is not a known field selector`)
   * whatever selectableFields offers (PersistentVolumes, PersistentVolumeClaims, ReplicaSets).
   */
  readonly defaultFieldLabelConversion?: boolean;
  /** The message of the kind's field label conversion for a field it does not support (default `field label not supported: x`). */
  fieldLabelMessage?(field: string): string;
  /** Columns of `kubectl get`; defaults to Name and Age (the default table convertor). */
  readonly table?: readonly TableColumn<T>[];
  /** DELETE answers with the deleted object instead of a Success Status (pods, services, ...). */
  readonly returnDeletedObject?: boolean;
  /** Verbs not served (e.g. namespaces have no deletecollection). */
  readonly disabledVerbs?: readonly string[];
  /** Set when the kind is deprecated in every version served (core/v1 Endpoints). */
  readonly lifecycle?: APILifecycle;
  /** Seconds an object lives after its last write before storage removes it (events: --event-ttl). */
  readonly ttlSeconds?: number;
  /** Versioned defaulting (SetDefaults_*), applied to every decoded request body of this kind. */
  defaults?(obj: T): void;
  /**
   * Objects live in another resource's storage (events.k8s.io events in core events): that Store
   * serves them through this definition's strategy, converting at the endpoint.
   */
  readonly storedAs?: { readonly groupResource: string; readonly hubVersion: { readonly group: string; readonly version: string } };
  /**
   * Where kube's StorageFactory stores the resource unlike the other built-ins: in another media
   * type (the apiextensions and aggregator servers store JSON) and/or another version than the
   * one served first (CRDs: apiextensions.k8s.io/v1beta1), converted by these functions.
   */
  readonly storageEncoding?: StorageEncoding;
  /** The scale subresource (autoscaling/v1 Scale), for resources with replicas. */
  readonly scale?: ScaleDefinition<T>;
  /** Subresources with REST of their own (pods/binding, pods/log, serviceaccounts/token). */
  extraSubresources?(store: ResourceStore<T>, lookup: StoreLookup): readonly SubresourceREST[];
  /**
   * Subresources that update part of the object, each with its strategy, served with get, patch
   * and update like status (certificatesigningrequests/approval)...
   */
  readonly updateSubresources?: Readonly<Record<string, Strategy<T>>>;
  /** ...except these, served with PUT only (namespaces/finalize). */
  readonly putOnlySubresources?: readonly string[];
  /**
   * Replaces capabilities of the main resource's generic Store (namespaces' two-phase delete). Gets
   * the Store and returns the REST storage to serve.
   */
  customizeStorage?(store: ResourceStore<T>): ResourceStore<T>;
  /** Side effects around writes that the strategy cannot express (service IP and port allocation). */
  readonly hooks?: WriteHooks<T>;
  /**
   * ShouldDeleteDuringUpdate beyond the generic rule (marked for deletion, no finalizer left):
   * false keeps the object (a namespace waits for its spec.finalizers).
   */
  deletesDuringUpdate?(obj: T): boolean;
  /**
   * Fills in the Go zero values kube's encoder writes for this kind (rest/zero-values.ts), after
   * validation of every create and update, before the object is stored.
   */
  goZeroValues?(obj: T): void;
  /**
   * The object's ObjectMeta as kube's internal type holds it, which is what PartialObjectMetadata
   * and Table rows show (they skip the versioned conversion): DaemonSets drop an annotation there.
   */
  metadataView?(obj: DeepReadonly<T>): ObjectMeta;
  /** A Warning for a DELETE or DELETECOLLECTION with these (valid) options, added before the delete is tried (jobs). */
  deleteWarning?(ctx: RequestContext, options: DeleteOptions): string | undefined;
}

/** Where a resource keeps its replicas, for the scale subresource. */
export interface ScaleDefinition<T extends KubeObject> {
  specReplicas(obj: DeepReadonly<T>): number;
  setSpecReplicas(obj: T, replicas: number): void;
  statusReplicas(obj: DeepReadonly<T>): number;
  /** The label selector in its string form (status.selector for Scale), '' when there is none. */
  selector(obj: DeepReadonly<T>): string;
  /** Where spec replicas live, as a CRD's specReplicasPath (".spec.replicas" when absent): managedFields follow it. */
  readonly specReplicasPath?: string;
}

/** Called with the outcome of the write: release what was reserved when it failed. */
export type FinishFunc = (success: boolean) => Promise<void>;

export interface WriteHooks<T extends KubeObject> {
  /** Before validation of a create; may fill fields (allocated IPs) and reject with a StatusError. */
  beginCreate?(ctx: RequestContext, obj: T, dryRun: boolean): Promise<FinishFunc>;
  /** Before validation of an update. */
  beginUpdate?(ctx: RequestContext, obj: T, old: DeepReadonly<T>, dryRun: boolean): Promise<FinishFunc>;
  /** After the object is gone from storage (release allocations). Not called for dry runs. */
  afterDelete?(ctx: RequestContext, obj: DeepReadonly<T>): Promise<void>;
}

/** metadata.name and, for namespaced resources, metadata.namespace: every resource's field selectors. */
export function objectMetaFieldSet(meta: DeepReadonly<KubeObject['metadata']>, namespaced: boolean): Record<string, string> {
  const set: Record<string, string> = { 'metadata.name': meta.name ?? '' };
  if (namespaced) set['metadata.namespace'] = meta.namespace ?? '';
  return set;
}

/**
 * The registry's handle on one resource: the REST verbs (StandardStorage) plus what subresources,
 * customized storages and controllers need. registry/generic's Store is one implementation;
 * wrappers (namespaces' two-phase delete, RBAC's escalation checks) are others.
 */
export interface ResourceStore<T extends KubeObject = KubeObject> extends StandardStorage {
  readonly definition: ResourceDefinition<T>;
  readonly qualifiedResource: GroupResource;
  /** The storage key of `name`; rejects with BadRequest for a missing namespace or a name no path segment can hold. */
  keyFor(ctx: RequestContext, name: string): string;
  /** A view of the same objects through another strategy (the status subresource), or served as another resource, which errors then name. */
  withStrategy(strategy: Strategy<T>, qualifiedResource?: GroupResource): ResourceStore<T>;
  /**
   * Writes `mutate(current)` with compare-and-swap, past the strategy and metadata checks (server-side
   * state changes clients may not make). Rejects with NotFound when the object does not exist.
   */
  updateUnchecked(ctx: RequestContext, name: string, mutate: (current: KubeObject) => KubeObject,
    opts: { readonly dryRun: boolean }): Promise<KubeObject>;
}

/** Finds the REST storage of another resource at request time ("pods", "deployments.apps"). */
export type StoreLookup = (groupResource: string) => ResourceStore | undefined;

/** A subresource served by its own REST object (pods/binding, pods/eviction, serviceaccounts/token). */
export interface SubresourceREST {
  readonly name: string;
  /** The kind its requests and responses carry, and that kind's group version when not the parent's. */
  readonly kind: string;
  readonly kindGroupVersion?: { readonly group: string; readonly version: string };
  readonly storage: object;
  /** Verbs the storage's capabilities imply but kube does not serve (namespaces/finalize: patch). */
  readonly omitVerbs?: readonly string[];
  /** The versioned defaults of `kind`, applied as its bodies are decoded (so managedFields see them). */
  readonly defaults?: (obj: KubeObject) => void;
  /** The Go zero values of `kind` (fields without omitempty), filled in after field tracking, before admission. */
  readonly goZeroValues?: (obj: KubeObject) => void;
}

/** See ResourceDefinition.storageEncoding. */
export interface StorageEncoding {
  readonly mediaType?: 'application/json';
  readonly version?: {
    /** The apiVersion objects are stored in. */
    readonly apiVersion: string;
    /** From the served (first) version to the stored one. */
    readonly toStorage: (obj: KubeObject) => KubeObject;
    /** From the stored version back. */
    readonly fromStorage: (obj: KubeObject) => KubeObject;
  };
}
