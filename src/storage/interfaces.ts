// The storage contract (see ARCHITECTURE.md): etcd's MVCC semantics for API objects.
// Storage speaks keys and revisions; the registry translates its errors into API errors.
// Counterpart of k8s.io/apiserver/pkg/storage/interfaces.go.
import type { KubeObject, Preconditions } from '../apimachinery/meta/types.ts';
import type { Watch } from '../apimachinery/watch/event.ts';

/** Encodes objects in the storage version and decodes them back (to the internal version). */
/** Objects to stored values and back; values are byte strings (backend.ts KeyValue.value). */
export interface Codec {
  encode(obj: KubeObject): string;
  /** Throws when the bytes hold no object (the store reports the key as corrupt). */
  decode(data: string): KubeObject;
  /**
   * Objects are unstructured (custom resources): kube holds them as Go maps, whose keys its JSON
   * encoder sorts at every level, metadata.resourceVersion among them.
   */
  readonly unstructured?: boolean;
}

export type { SelectionPredicate } from '../apimachinery/fields/predicate.ts';
import type { SelectionPredicate } from '../apimachinery/fields/predicate.ts';

export const EVERYTHING: SelectionPredicate = { empty: true, matches: () => true };

export type ResourceVersionMatch = '' | 'NotOlderThan' | 'Exact';

export interface GetOptions {
  /** '' or '0' reads the newest; a number reads at least that fresh (never older). */
  readonly resourceVersion?: string;
  /** Resolve to undefined instead of rejecting with KeyNotFound. */
  readonly ignoreNotFound?: boolean;
  /**
   * The caller only reads the object: it may be a shared, frozen copy (the watch cache's, whose
   * encodings are then reused) instead of a fresh decode.
   */
  readonly shared?: boolean;
  /**
   * The object already decoded from the value stored at this modRevision, if the caller holds it
   * (the watch cache): a revision names one write, so its bytes, and their decode, are the same.
   */
  readonly decoded?: (modRevision: number) => KubeObject | undefined;
}

export interface ListOptions {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
  readonly limit?: number;
  readonly continue?: string;
  readonly predicate: SelectionPredicate;
  /** List everything under the key as a prefix (false: the key is one object). */
  readonly recursive: boolean;
}

export interface ListResult {
  readonly items: KubeObject[];
  /** The revision the list was read at, as a string. */
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface WatchOptions {
  /** '' or '0': start from the newest state with synthetic ADDED events; otherwise changes after it. */
  readonly resourceVersion?: string;
  readonly recursive: boolean;
  readonly predicate: SelectionPredicate;
  /** Deliver BOOKMARK events carrying progress. */
  readonly allowBookmarks?: boolean;
  /** Stream current state as ADDED events first, then a bookmark marked initial-events-end. */
  readonly sendInitialEvents?: boolean;
  readonly signal?: AbortSignal;
}

/** Checked against the object being deleted before it is deleted; may throw. */
export type ValidateDeletion = (current: KubeObject) => void | Promise<void>;

export type StorageErrorCode =
  | 'KeyNotFound' | 'KeyExists' | 'ResourceVersionConflicts' | 'InvalidObj' | 'InvalidError'
  | 'Unreachable' | 'Compacted' | 'TooLargeResourceVersion' | 'InvalidContinue' | 'RequestTooLarge';

/** An error of the storage layer, translated into a StatusError by the registry. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /** For Compacted: the oldest revision still available. For TooLargeResourceVersion: the current one. */
    readonly revision = 0,
    /**
     * For Compacted on a list with a continue token: a token that goes on at the newest revision
     * (kube sends it in the 410 Status's metadata.continue), '' otherwise.
     */
    readonly continueToken = '',
  ) {
    super(message);
  }
}

export const isStorageError = (err: unknown, code?: StorageErrorCode): err is StorageError =>
  err instanceof StorageError && (code === undefined || err.code === code);

/**
 * The object-level contract of storage, implemented once (storage/store.ts) over any
 * `Backend`. Every method rejects with a StorageError for storage-level failures.
 */
export interface Interface {
  /**
   * Rejects with KeyExists if the key holds an object, RequestTooLarge when the write would
   * exceed etcd's request limit. Sets metadata.resourceVersion.
   */
  create(key: string, obj: KubeObject, ttlSeconds?: number): Promise<KubeObject>;
  /** Rejects with KeyNotFound unless ignoreNotFound (then resolves undefined). */
  get(key: string, opts: GetOptions): Promise<KubeObject | undefined>;
  /** Rejects with Compacted for a too old revision or continue token, TooLargeResourceVersion when ahead. */
  getList(key: string, opts: ListOptions): Promise<ListResult>;
  /**
   * Reads, applies tryUpdate and writes with compare-and-swap on the revision, retrying on a
   * concurrent write. Rejects with KeyNotFound (unless ignoreNotFound: tryUpdate then gets
   * undefined-as-missing and creates), ResourceVersionConflicts when preconditions fail,
   * RequestTooLarge when the new object grows beyond etcd's request limit.
   * A tryUpdate result equal to the current object is not written (no new revision).
   */
  guaranteedUpdate(key: string, opts: {
    readonly ignoreNotFound: boolean;
    readonly preconditions?: Preconditions;
    readonly tryUpdate: (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;
    /** The written object expires after this many seconds (kube's ttlFunc); absent: never. */
    readonly ttlSeconds?: number;
    /** tryUpdate only reads `current` (it copies what it changes): see GetOptions.shared. */
    readonly shared?: boolean;
    /** See GetOptions.decoded. */
    readonly decoded?: (modRevision: number) => KubeObject | undefined;
  }): Promise<KubeObject>;
  /** Rejects with KeyNotFound, or ResourceVersionConflicts when preconditions fail. Resolves the deleted object. */
  delete(key: string, opts: { readonly preconditions?: Preconditions; readonly validateDeletion?: ValidateDeletion }): Promise<KubeObject>;
  /** Rejects with Compacted for a too old resourceVersion. */
  watch(key: string, opts: WatchOptions): Promise<Watch>;
  count(key: string): Promise<number>;
  /** The newest revision of the store. */
  currentRevision(): Promise<number>;
  /**
   * What a write of `obj` would read back: encoded to the storage version and decoded (kube's
   * DryRunnableStorage.copyInto, which a dry run answers with). Absent: `obj` itself. Rejects as
   * the codec does (a custom resource's conversion webhook).
   */
  roundTrip?(obj: KubeObject): Promise<KubeObject>;
}
