// Deletion (Store.Delete in Go): preconditions, graceful deletion, finalizers and
// propagation policy, then removal from storage. The handler has validated the options.
// Counterpart of k8s.io/apiserver/pkg/registry/generic/registry/store.go (Delete) and
// k8s.io/apiserver/pkg/registry/rest/delete.go.
import { newConflict } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject, Status } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { checkDeadline } from '../../apimachinery/request/deadline.ts';
import { isStorageError } from '../../storage/interfaces.ts';
import type { ValidateObjectFunc } from '../rest/capabilities.ts';
import type { DeepReadonly, ResourceDefinition, ResourceStore } from '../rest/strategy.ts';
import type { DryRunnableStorage } from './dryrun.ts';
import { nowRFC3339 } from './names.ts';
import { interpretStorageError } from './storage-errors.ts';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** What rest.BeforeDelete decides for one state of the object. */
export type DeleteDecision =
  /** No graceful deletion: finalizers hold the object, or it goes now. */
  | { readonly kind: 'now' }
  /** A graceful deletion is under way and the request does not shorten it: nothing to write. */
  | { readonly kind: 'pending' }
  /** Set (or move earlier) deletionTimestamp and deletionGracePeriodSeconds. */
  | { readonly kind: 'graceful'; readonly deletionTimestamp: string; readonly grace: number; readonly firstTime: boolean };

const seconds = (n: number): number => n * 1000;

/**
 * rest.BeforeDelete for `obj` (without the options validation, done by the handler). Rejects
 * with 409 Conflict when the preconditions do not match the object. A negative
 * gracePeriodSeconds counts as 1; a terminating object's grace period may only be shortened,
 * its deletionTimestamp moving earlier but never into the past.
 */
function beforeDelete<T extends KubeObject>(def: ResourceDefinition<T>, ctx: RequestContext, obj: DeepReadonly<KubeObject>,
  opts: DeleteOptions, now: number): DeleteDecision {
  const m = obj.metadata;
  const p = opts.preconditions;
  // kube names the object by its kind here, not its resource.
  const gk = { group: def.group, resource: def.kind };
  if (p?.uid !== undefined && p.uid !== null && p.uid !== (m.uid ?? '')) {
    throw newConflict(gk, m.name ?? '', `the UID in the precondition (${p.uid}) does not match the UID in record (${m.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (p?.resourceVersion !== undefined && p.resourceVersion !== null && p.resourceVersion !== (m.resourceVersion ?? '')) {
    throw newConflict(gk, m.name ?? '', `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${m.resourceVersion ?? ''}). The object might have been modified`);
  }
  const requested = opts.gracePeriodSeconds;
  if (def.strategy.checkGracefulDelete === undefined) return { kind: 'now' };
  if (m.deletionTimestamp !== undefined) {
    const current = m.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds < 0 ? 1 : m.deletionGracePeriodSeconds;
    // Deletion was requested earlier without a grace period: delete at once.
    if (current === undefined || current === 0) return { kind: 'now' };
    if (requested === undefined || requested >= current) return { kind: 'pending' };
    let at = Date.parse(m.deletionTimestamp) - seconds(current) + seconds(requested);
    let grace = requested;
    if (at < now) {
      at = now;
      // The whole grace period has passed: the shortest graceful deletion that is still one.
      if (grace !== 0) grace = 1;
    }
    return { kind: 'graceful', deletionTimestamp: nowRFC3339(at), grace, firstTime: false };
  }
  const grace = def.strategy.checkGracefulDelete(ctx, obj as DeepReadonly<T>, opts);
  if (grace === undefined || grace <= 0) return { kind: 'now' };
  return { kind: 'graceful', deletionTimestamp: nowRFC3339(now + seconds(grace)), grace, firstTime: true };
}

/**
 * Finalizers the object must carry after this delete: its own plus the propagation policy's.
 * Without a policy in the options, an orphan or foregroundDeletion finalizer the object has
 * decides, else the strategy's default garbage collection policy (kube's shouldOrphanDependents).
 */
function finalizersFor<T extends KubeObject>(def: ResourceDefinition<T>, ctx: RequestContext, obj: DeepReadonly<KubeObject>,
  opts: DeleteOptions): string[] {
  const fs = new Set(obj.metadata.finalizers ?? []);
  let policy = opts.propagationPolicy ?? (opts.orphanDependents === true ? 'Orphan' :
    opts.orphanDependents === false ? 'Background' : undefined);
  if (policy === undefined && !fs.has(FINALIZER_ORPHAN) && !fs.has(FINALIZER_FOREGROUND) &&
      def.strategy.defaultGarbageCollectionPolicy?.(ctx) === 'OrphanDependents') {
    policy = 'Orphan';
  }
  if (policy === 'Orphan') { fs.add(FINALIZER_ORPHAN); fs.delete(FINALIZER_FOREGROUND); }
  if (policy === 'Foreground') { fs.add(FINALIZER_FOREGROUND); fs.delete(FINALIZER_ORPHAN); }
  if (policy === 'Background') { fs.delete(FINALIZER_ORPHAN); fs.delete(FINALIZER_FOREGROUND); }
  return [...fs];
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

// markAsDeleting: what finalizers wait on, without graceful deletion.
function markAsDeleting(m: KubeObject['metadata'], now: number): void {
  if (m.deletionTimestamp === undefined && (m.generation ?? 0) > 0) m.generation = (m.generation ?? 0) + 1;
  if (m.deletionTimestamp === undefined || Date.parse(m.deletionTimestamp) > now) m.deletionTimestamp = nowRFC3339(now);
  m.deletionGracePeriodSeconds = 0;
}

class DeleteNow extends Error {}
class AlreadyDeleting extends Error {}

/** The outcome of updateForGracefulDeletionAndFinalizers. */
type Marked =
  | { readonly kind: 'kept'; readonly object: KubeObject }
  | { readonly kind: 'deleteNow'; readonly updated: KubeObject | undefined }
  | { readonly kind: 'alreadyDeleting' };

export async function deleteObject<T extends KubeObject>(store: ResourceStore<T>, storage: DryRunnableStorage, ctx: RequestContext,
  name: string, validate: ValidateObjectFunc | undefined, options: DeleteOptions):
  Promise<{ object: KubeObject | Status; deletedImmediately: boolean }> {
  const def = store.definition;
  const gr = store.qualifiedResource;
  const key = store.keyFor(ctx, name);
  const opts: DeleteOptions = { ...options };
  // Negative values are treated as 1s on the delete path.
  if (opts.gracePeriodSeconds !== undefined && opts.gracePeriodSeconds < 0) opts.gracePeriodSeconds = 1;
  const dryRun = (opts.dryRun ?? []).includes('All');
  const existing = await store.get(ctx, name, {});
  const finalize = (obj: KubeObject): KubeObject | Status => {
    if (def.returnDeletedObject === true) return obj;
    const details: NonNullable<Status['details']> = { name: obj.metadata.name ?? name };
    if (gr.group !== '') details.group = gr.group;
    details.kind = gr.resource;
    if (obj.metadata.uid !== undefined) details.uid = obj.metadata.uid;
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
  };

  const first = beforeDelete(def, ctx, existing as DeepReadonly<KubeObject>, opts, Date.now());
  // As rest.BeforeDelete, the caller's options learn the grace period the strategy chose: the
  // request's admission (webhooks' DeleteOptions) sees it.
  if (first.kind === 'graceful' && first.firstTime && options.gracePeriodSeconds === undefined) options.gracePeriodSeconds = first.grace;
  // Finalizers cannot be changed through DeleteOptions once a graceful deletion is pending.
  if (first.kind === 'pending') return { object: finalize(existing), deletedImmediately: false };
  const pendingFinalizers = (existing.metadata.finalizers ?? []).length > 0;
  const updateFinalizers = !sameList(existing.metadata.finalizers ?? [], finalizersFor(def, ctx, existing as DeepReadonly<KubeObject>, opts));

  let preconditions = opts.preconditions;
  let lastExisting: KubeObject | undefined;
  if (first.kind === 'graceful' || pendingFinalizers || updateFinalizers) {
    const marked = await markForDeletion(def, storage, ctx, key, validate, opts, existing, dryRun);
    if (marked.kind === 'alreadyDeleting') return { object: finalize(existing), deletedImmediately: false };
    if (marked.kind === 'kept') return { object: marked.object, deletedImmediately: false };
    lastExisting = marked.updated;
    if (dryRun && lastExisting !== undefined) return { object: lastExisting, deletedImmediately: true };
    if (lastExisting !== undefined && preconditions?.resourceVersion !== undefined) {
      preconditions = { ...preconditions, resourceVersion: lastExisting.metadata.resourceVersion ?? '' };
    }
  }

  let deleted: KubeObject;
  try {
    if (!dryRun) checkDeadline(ctx);
    deleted = await storage.delete(key, {
      ...(preconditions !== undefined ? { preconditions } : {}),
      ...(validate !== undefined ? { validateDeletion: validate } : {}),
    }, dryRun);
  } catch (err) {
    // Deleting after setting a zero grace period races with others deleting it: that is fine.
    if (isStorageError(err, 'KeyNotFound') && lastExisting !== undefined) return { object: finalize(lastExisting), deletedImmediately: true };
    throw interpretStorageError(err, gr, name, 'delete');
  }
  if (!dryRun) await def.hooks?.afterDelete?.(ctx, deleted as DeepReadonly<T>);
  return { object: finalize(deleted), deletedImmediately: true };
}

/**
 * updateForGracefulDeletionAndFinalizers: in one guaranteed update, decides again on the newest
 * object, sets the finalizers the options ask for and marks the object as deleting.
 */
async function markForDeletion<T extends KubeObject>(def: ResourceDefinition<T>, storage: DryRunnableStorage, ctx: RequestContext, key: string,
  validate: ValidateObjectFunc | undefined, opts: DeleteOptions, existing: KubeObject, dryRun: boolean): Promise<Marked> {
  let lastGraceful = 0;
  let pendingFinalizers = false;
  const tryUpdate = async (cur: KubeObject): Promise<KubeObject> => {
    if (validate !== undefined) await validate(cur);
    const now = Date.now();
    const d = beforeDelete(def, ctx, cur as DeepReadonly<KubeObject>, opts, now);
    if (d.kind === 'pending') throw new AlreadyDeleting();
    const m = cur.metadata;
    const finalizers = finalizersFor(def, ctx, cur as DeepReadonly<KubeObject>, opts);
    if (!sameList(m.finalizers ?? [], finalizers)) m.finalizers = finalizers;
    pendingFinalizers = (m.finalizers ?? []).length > 0;
    if (d.kind === 'now') {
      if (!pendingFinalizers) throw new DeleteNow();
      markAsDeleting(m, now);
      return cur;
    }
    m.deletionTimestamp = d.deletionTimestamp;
    m.deletionGracePeriodSeconds = d.grace;
    // The first graceful deletion changes what controllers may do: a new generation.
    if (d.firstTime && (m.generation ?? 0) > 0) m.generation = (m.generation ?? 0) + 1;
    lastGraceful = d.grace;
    return cur;
  };
  let out: KubeObject;
  try {
    out = await storage.guaranteedUpdate(key, {
      ignoreNotFound: false,
      ...(opts.preconditions !== undefined ? { preconditions: opts.preconditions } : {}),
      tryUpdate: (cur) => tryUpdate(structuredClone(cur ?? existing)),
    }, dryRun);
  } catch (err) {
    if (err instanceof DeleteNow) return { kind: 'deleteNow', updated: undefined };
    if (err instanceof AlreadyDeleting) return { kind: 'alreadyDeleting' };
    throw interpretStorageError(err, { group: def.group, resource: def.resource }, existing.metadata.name ?? '', 'delete');
  }
  if (pendingFinalizers || lastGraceful > 0) return { kind: 'kept', object: out };
  // A zero grace period was written: now the object goes.
  return { kind: 'deleteNow', updated: out };
}
