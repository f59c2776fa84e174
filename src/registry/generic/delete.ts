// Deletion (Store.Delete in Go): preconditions, graceful deletion, finalizers and
// propagation policy, then removal from storage.
import { newConflict } from '../../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject, Status } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Interface as Storage } from '../../storage/interfaces.ts';
import type { ValidateObjectFunc } from '../rest/capabilities.ts';
import type { DeepReadonly } from '../rest/strategy.ts';
import { nowRFC3339 } from './names.ts';
import { interpretStorageError } from './storage-errors.ts';
import type { Store } from './store.ts';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

function checkPreconditions(store: Store<KubeObject>, name: string, obj: KubeObject, opts: DeleteOptions): void {
  const p = opts.preconditions;
  if (p === undefined) return;
  if (p.uid !== undefined && p.uid !== obj.metadata.uid) {
    throw newConflict(store.qualifiedResource, name,
      `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw newConflict(store.qualifiedResource, name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`);
  }
}

/** Finalizers the object must carry after this delete: its own plus the propagation policy's. */
function finalizersFor(obj: KubeObject, opts: DeleteOptions): string[] {
  const fs = new Set(obj.metadata.finalizers ?? []);
  const policy = opts.propagationPolicy ?? (opts.orphanDependents === true ? 'Orphan' :
    opts.orphanDependents === false ? 'Background' : undefined);
  if (policy === 'Orphan') { fs.add(FINALIZER_ORPHAN); fs.delete(FINALIZER_FOREGROUND); }
  if (policy === 'Foreground') { fs.add(FINALIZER_FOREGROUND); fs.delete(FINALIZER_ORPHAN); }
  if (policy === 'Background') { fs.delete(FINALIZER_ORPHAN); fs.delete(FINALIZER_FOREGROUND); }
  return [...fs];
}

export async function deleteObject<T extends KubeObject>(store: Store<T>, storage: Storage, ctx: RequestContext,
  name: string, validate: ValidateObjectFunc | undefined, opts: DeleteOptions):
  Promise<{ object: KubeObject | Status; deletedImmediately: boolean }> {
  const def = store.definition;
  const gr = store.qualifiedResource;
  const key = store.keyFor(ctx, name);
  const dryRun = (opts.dryRun ?? []).includes('All');
  const existing = await store.get(ctx, name, {});
  checkPreconditions(store as unknown as Store<KubeObject>, name, existing, opts);

  const finalizers = finalizersFor(existing, opts);
  const alreadyDeleting = existing.metadata.deletionTimestamp !== undefined;
  const grace = alreadyDeleting ? undefined
    : def.strategy.checkGracefulDelete?.(ctx, existing as DeepReadonly<T>, opts);
  const graceful = grace !== undefined && grace > 0;

  // A graceful deletion already under way finishes when its grace period ends, unless the client
  // asks for an immediate delete.
  const pendingGrace = alreadyDeleting && (existing.metadata.deletionGracePeriodSeconds ?? 0) > 0 &&
    opts.gracePeriodSeconds !== 0;
  if (finalizers.length > 0 || graceful || pendingGrace) {
    if (validate !== undefined) await validate(existing);
    // Mark for deletion: the object stays until its finalizers are removed or its grace ends.
    const mark = (cur: KubeObject): KubeObject => {
      const m = cur.metadata;
      if (m.deletionTimestamp === undefined) {
        m.deletionTimestamp = nowRFC3339(Date.now() + (graceful ? grace * 1000 : 0));
        m.deletionGracePeriodSeconds = graceful ? grace : 0;
      }
      if (finalizers.length > 0) m.finalizers = finalizersFor(cur, opts);
      return cur;
    };
    if (dryRun) return { object: mark(structuredClone(existing)), deletedImmediately: false };
    try {
      const out = await storage.guaranteedUpdate(key, {
        ignoreNotFound: false,
        ...(opts.preconditions !== undefined ? { preconditions: opts.preconditions } : {}),
        tryUpdate: (cur) => mark(structuredClone(cur ?? existing)),
      });
      return { object: out, deletedImmediately: false };
    } catch (err) {
      throw interpretStorageError(err, gr, name, 'delete');
    }
  }

  let deleted: KubeObject;
  if (dryRun) {
    if (validate !== undefined) await validate(existing);
    deleted = existing;
  } else {
    try {
      deleted = await storage.delete(key, {
        ...(opts.preconditions !== undefined ? { preconditions: opts.preconditions } : {}),
        ...(validate !== undefined ? { validateDeletion: validate } : {}),
      });
    } catch (err) {
      throw interpretStorageError(err, gr, name, 'delete');
    }
    await def.hooks?.afterDelete?.(ctx, deleted as DeepReadonly<T>);
  }
  if (def.returnDeletedObject === true) return { object: deleted, deletedImmediately: true };
  const details: NonNullable<Status['details']> = { name: deleted.metadata.name ?? name };
  if (gr.group !== '') details.group = gr.group;
  details.kind = gr.resource;
  if (deleted.metadata.uid !== undefined) details.uid = deleted.metadata.uid;
  return { object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }, deletedImmediately: true };
}
