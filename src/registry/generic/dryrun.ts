// The storage a Store writes through (registry/generic/registry/dryrun.go, DryRunnableStorage):
// every write takes a dryRun flag, and a dry run does all the reading and checking of the write
// (existence, preconditions, tryUpdate, validateDeletion) without writing anything.
// Counterpart of k8s.io/apiserver/pkg/registry/generic/registry/dryrun.go.
import type { KubeObject, Preconditions } from '../../apimachinery/meta/types.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import {
  StorageError, type GetOptions, type Interface as Storage, type ListOptions, type ListResult, type ValidateDeletion,
  type WatchOptions,
} from '../../storage/interfaces.ts';
import { checkPreconditions } from '../../storage/store.ts';

export interface DryRunUpdateOptions {
  readonly ignoreNotFound: boolean;
  readonly preconditions?: Preconditions;
  readonly tryUpdate: (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;
  readonly ttlSeconds?: number;
  /** tryUpdate only reads what it is given: storage may hand it a shared, frozen object. */
  readonly shared?: boolean;
}

export interface DryRunDeleteOptions {
  readonly preconditions?: Preconditions;
  readonly validateDeletion?: ValidateDeletion;
}

export class DryRunnableStorage {
  constructor(readonly storage: Storage) {}

  get(key: string, opts: GetOptions): Promise<KubeObject | undefined> { return this.storage.get(key, opts); }
  getList(key: string, opts: ListOptions): Promise<ListResult> { return this.storage.getList(key, opts); }
  watch(key: string, opts: WatchOptions): Promise<Watch> { return this.storage.watch(key, opts); }

  /** Rejects with KeyExists when the key holds an object; a dry run resolves `obj` unchanged. */
  async create(key: string, obj: KubeObject, ttlSeconds: number | undefined, dryRun: boolean): Promise<KubeObject> {
    if (!dryRun) return this.storage.create(key, obj, ttlSeconds);
    const existing = await this.storage.get(key, { ignoreNotFound: true });
    if (existing !== undefined) throw new StorageError('KeyExists', key, `key exists: ${key}`);
    return this.storage.roundTrip === undefined ? obj : this.storage.roundTrip(obj);
  }

  /**
   * A dry run reads the object, checks the preconditions and resolves what tryUpdate makes of a
   * copy of it, as the write would have stored it (without a new resourceVersion).
   */
  async guaranteedUpdate(key: string, opts: DryRunUpdateOptions, dryRun: boolean): Promise<KubeObject> {
    if (!dryRun) return this.storage.guaranteedUpdate(key, opts);
    const existing = await this.storage.get(key, { ignoreNotFound: true });
    if (existing === undefined && !opts.ignoreNotFound) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    checkPreconditions(key, opts.preconditions, existing);
    const updated = await opts.tryUpdate(existing === undefined ? undefined : structuredClone(existing));
    return this.storage.roundTrip === undefined ? updated : this.storage.roundTrip(updated);
  }

  /** A dry run reads the object, checks preconditions and validateDeletion, and resolves the object. */
  async delete(key: string, opts: DryRunDeleteOptions, dryRun: boolean): Promise<KubeObject> {
    if (!dryRun) return this.storage.delete(key, opts);
    const existing = await this.storage.get(key, {});
    if (existing === undefined) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    checkPreconditions(key, opts.preconditions, existing);
    await opts.validateDeletion?.(existing);
    return existing;
  }
}
