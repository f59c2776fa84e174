// A garbage collector for ownerReferences (kube-controller-manager's, reduced to what a
// control plane of one binary needs): dependents of a deleted owner are deleted (background),
// an owner deleted with propagationPolicy Foreground goes after its dependents, and one deleted
// with Orphan leaves them, without the reference. Its deletes and its updates (dependents'
// ownerReferences, owners' finalizers) are admitted as kube's, which patches through the API.
// Counterpart of pkg/controller/garbagecollector.
import { isConflict, isNotFound } from '../apimachinery/errors/status-error.ts';
import type { DeleteOptions, KubeObject, OwnerReference } from '../apimachinery/meta/types.ts';
import { systemContext } from '../apimachinery/request/context.ts';
import { parseGroupVersion } from '../apimachinery/schema/group-version.ts';
import { Controller, type ControllerOptions } from '../client/controller.ts';
import { resourceName } from '../client/cache/informer-factory.ts';
import type { SharedInformer } from '../client/cache/shared-informer.ts';
import { ItemExponentialFailureRateLimiter } from '../client/workqueue/rate-limiter.ts';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../registry/generic/delete.ts';
import type { ResourceStore } from '../registry/rest/strategy.ts';
import { unadmittedDeletes, unadmittedUpdates, type ControllerDeletes, type ControllerUpdates } from './controller-admission.ts';

const RETRY_MS = 500;

interface Node {
  readonly store: ResourceStore<KubeObject>;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  owners: readonly OwnerReference[];
}

const kindKey = (store: ResourceStore<KubeObject>): string => `${store.definition.group}/${store.definition.kind}`;

/** An empty list is omitted, as Go serializes it. */
function setOwnerReferences(obj: KubeObject, refs: OwnerReference[]): void {
  if (refs.length > 0) obj.metadata.ownerReferences = refs;
  else delete obj.metadata.ownerReferences;
}

export class GarbageCollector extends Controller {
  private readonly nodes = new Map<string, Node>();          // by uid
  private readonly dependents = new Map<string, Set<string>>(); // owner uid → dependent uids
  private readonly byKind = new Map<string, ResourceStore<KubeObject>>();
  private readonly informers = new Map<ResourceStore<KubeObject>, SharedInformer>();

  /** `deletes`, `updates`: how its writes are admitted (kube's GC writes through the API as its service account). */
  constructor(stores: readonly ResourceStore<KubeObject>[], opts: ControllerOptions = {}, private readonly deletes: ControllerDeletes = unadmittedDeletes,
    private readonly updates: ControllerUpdates = unadmittedUpdates) {
    super('garbage collector', {
      rateLimiter: new ItemExponentialFailureRateLimiter(RETRY_MS, 8 * RETRY_MS), quiet: (e) => isConflict(e) || isNotFound(e), ...opts,
    });
    for (const store of stores) this.followStore(store);
  }

  /**
   * Follows the objects of one more store, e.g. a CRD's custom resources once it is served. A
   * store of a kind already followed replaces the other one (a CRD whose storage version changed).
   */
  async addStore(store: ResourceStore<KubeObject>): Promise<void> {
    if (this.stopped) return;
    await this.followStore(store).start();
  }

  private followStore(store: ResourceStore<KubeObject>): SharedInformer {
    const kind = kindKey(store);
    const prev = this.byKind.get(kind);
    if (prev !== undefined) this.removeStore(prev);
    this.byKind.set(kind, store);
    const informer = this.follow(store, resourceName(store.definition), {
      onAdd: (o) => { this.observe(store, o); },
      onUpdate: (_old, o) => { this.observe(store, o); },
      onDelete: (o) => { this.forget(o.metadata.uid ?? ''); },
    });
    this.informers.set(store, informer);
    return informer;
  }

  /** Stops following a store's kind (a CRD that is gone) and forgets its objects. */
  removeStore(store: ResourceStore<KubeObject>): void {
    const kind = kindKey(store);
    if (this.byKind.get(kind) !== store) return;
    this.byKind.delete(kind);
    const informer = this.informers.get(store);
    if (informer !== undefined) this.unfollow(informer);
    this.informers.delete(store);
    for (const node of [...this.nodes.values()]) {
      if (kindKey(node.store) === kind) this.forget(node.uid);
    }
  }

  private observe(store: ResourceStore<KubeObject>, obj: KubeObject): void {
    const uid = obj.metadata.uid ?? '';
    const prev = this.nodes.get(uid);
    for (const o of prev?.owners ?? []) this.dependents.get(o.uid)?.delete(uid);
    const node: Node = { store, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', uid,
      owners: obj.metadata.ownerReferences ?? [] };
    this.nodes.set(uid, node);
    for (const o of node.owners) {
      let set = this.dependents.get(o.uid);
      if (set === undefined) this.dependents.set(o.uid, set = new Set());
      set.add(uid);
    }
    const fin = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp !== undefined && (fin.includes(FINALIZER_ORPHAN) || fin.includes(FINALIZER_FOREGROUND))) {
      this.enqueue(uid);
    }
    if (node.owners.length > 0) this.enqueue(uid);
  }

  private forget(uid: string): void {
    const node = this.nodes.get(uid);
    this.nodes.delete(uid);
    for (const o of node?.owners ?? []) {
      this.dependents.get(o.uid)?.delete(uid);
      // An owner deleted in the foreground waits for its last dependent.
      if (this.nodes.has(o.uid)) this.enqueue(o.uid);
    }
    for (const dep of this.dependents.get(uid) ?? []) this.enqueue(dep);
  }

  private enqueue(uid: string): void {
    this.queue.add(uid);
  }

  protected async sync(uid: string): Promise<void> {
    await this.process(uid);
  }

  private async process(uid: string): Promise<void> {
    const node = this.nodes.get(uid);
    if (node === undefined) return;
    const obj = await node.store.get(systemContext(node.namespace), node.name, {});
    if (obj.metadata.uid !== uid) return;
    const fin = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp !== undefined && fin.includes(FINALIZER_ORPHAN)) return this.orphan(node);
    if (obj.metadata.deletionTimestamp !== undefined && fin.includes(FINALIZER_FOREGROUND)) return this.foreground(node);
    await this.deleteIfOrphaned(node, obj);
  }

  /** Deletes a dependent all of whose owners are gone; drops references to the missing ones otherwise. */
  private async deleteIfOrphaned(node: Node, obj: KubeObject): Promise<void> {
    const refs = obj.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const missing: string[] = [];
    for (const ref of refs) if (!(await this.ownerExists(ref, node.namespace))) missing.push(ref.uid);
    if (missing.length === 0) return;
    if (missing.length === refs.length) {
      const opts: DeleteOptions = { propagationPolicy: 'Background', preconditions: { uid: node.uid } };
      const d = this.deletes(node.store, node.namespace, opts, node.name);
      await node.store.delete(d.ctx, node.name, d.validate, opts);
      return;
    }
    await this.update(node, (cur) => {
      setOwnerReferences(cur, (cur.metadata.ownerReferences ?? []).filter((r) => !missing.includes(r.uid)));
    });
  }

  /** An update of `node` (kube's patch): `change` edits a copy of the stored object, which is admitted. */
  private async update(node: Pick<Node, 'store' | 'namespace' | 'name'>, change: (obj: KubeObject) => void): Promise<void> {
    const u = this.updates(node.store, node.namespace, node.name);
    // Through the ResourceStore's update, so that an object without finalizers left is deleted.
    await node.store.update(u.ctx, node.name, {
      updatedObject: async (_c, cur) => {
        const old = cur as KubeObject;
        const next = structuredClone(old);
        change(next);
        return await u.admit(next, old);
      },
    }, undefined, u.validate, false, { dryRun: false });
  }

  private async ownerExists(ref: OwnerReference, namespace: string): Promise<boolean> {
    if (this.nodes.has(ref.uid)) return true;
    const group = parseGroupVersion(ref.apiVersion)?.group ?? '';
    const store = this.byKind.get(`${group}/${ref.kind}`);
    if (store === undefined) return true; // a kind this server does not serve: leave it alone
    try {
      const owner = await store.get(systemContext(store.definition.namespaced ? namespace : ''), ref.name, {});
      return owner.metadata.uid === ref.uid;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  private async orphan(owner: Node): Promise<void> {
    for (const depUid of [...this.dependents.get(owner.uid) ?? []]) {
      const dep = this.nodes.get(depUid);
      if (dep === undefined) continue;
      await this.update(dep, (cur) => {
        setOwnerReferences(cur, (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.uid));
      });
    }
    await this.removeFinalizer(owner, FINALIZER_ORPHAN);
  }

  private async foreground(owner: Node): Promise<void> {
    const deps = [...this.dependents.get(owner.uid) ?? []].map((u) => this.nodes.get(u)).filter((d) => d !== undefined);
    for (const dep of deps) {
      try {
        const opts: DeleteOptions = { propagationPolicy: 'Foreground' };
        const d = this.deletes(dep.store, dep.namespace, opts, dep.name);
        await dep.store.delete(d.ctx, dep.name, d.validate, opts);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    // The owner goes once no dependent is left (their DELETED events bring it back here).
    if (deps.length === 0) await this.removeFinalizer(owner, FINALIZER_FOREGROUND);
  }

  private async removeFinalizer(node: Node, finalizer: string): Promise<void> {
    await this.update(node, (cur) => {
      const rest = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      // A merge patch of the remaining list: none left is no list at all.
      if (rest.length > 0) cur.metadata.finalizers = rest; else delete cur.metadata.finalizers;
    });
  }
}

