// The rbac/bootstrap-roles post-start hook (pkg/registry/rbac/rest/storage_rbac.go ensureRBACPolicy):
// creates the default roles and bindings that are missing and reconciles the stored ones, so that
// an upgraded server adds what a new release grants. Servers starting together on one store race
// here harmlessly: every write is conditional, and a lost race (AlreadyExists, Conflict, NotFound)
// reconciles again against what the winner wrote.
import { isAlreadyExists, isConflict, isNotFound, isStatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext, type RequestContext } from '../../apimachinery/request/context.ts';
import type { ClusterRole, ClusterRoleBinding } from '../../apis/rbac/v1/types.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';
import type { HealthCheck } from '../../server/healthz.ts';
import { bootstrapPolicy, type BootstrapPolicy } from './policy.ts';
import { reconcileBinding, reconcileRole, type Binding, type ReconcileOperation, type RuleOwner } from './reconcile.ts';

export interface RBACStores {
  readonly clusterRoles: ResourceStore<KubeObject>;
  readonly clusterRoleBindings: ResourceStore<KubeObject>;
  readonly roles: ResourceStore<KubeObject>;
  readonly roleBindings: ResourceStore<KubeObject>;
  /** When given, the namespace of a namespaced default is created if it is missing (as kube's RoleModifier does). */
  readonly namespaces?: ResourceStore<KubeObject>;
}

/** The RBAC stores among a server's stores (keyed "resource.group", core as "resource"). */
export function rbacStoresFrom(stores: ReadonlyMap<string, ResourceStore<KubeObject>>): RBACStores {
  const get = (key: string): ResourceStore<KubeObject> => {
    const s = stores.get(key);
    if (s === undefined) throw new Error(`rbac bootstrap: no store for ${key}`);
    return s;
  };
  const namespaces = stores.get('namespaces');
  return {
    clusterRoles: get('clusterroles.rbac.authorization.k8s.io'),
    clusterRoleBindings: get('clusterrolebindings.rbac.authorization.k8s.io'),
    roles: get('roles.rbac.authorization.k8s.io'),
    roleBindings: get('rolebindings.rbac.authorization.k8s.io'),
    ...(namespaces !== undefined ? { namespaces } : {}),
  };
}

export interface ReconcileOutcome {
  readonly kind: 'ClusterRole' | 'ClusterRoleBinding' | 'Role' | 'RoleBinding';
  readonly namespace: string;
  readonly name: string;
  readonly operation: ReconcileOperation;
  /** Left alone because annotated autoupdate "false" (operation: what reconciling would have done). */
  readonly protected: boolean;
  /** Set when the object could not be reconciled after the retries. */
  readonly error?: unknown;
}

export interface RBACBootstrapOptions {
  /** Default: kube-apiserver v1.36's policy. */
  readonly policy?: BootstrapPolicy;
  /** Where warnings (protected objects missing permissions, failures) go. Default: console.warn. */
  readonly warn?: (message: string) => void;
  /** Backoff between attempts on conflicts and lost races, in ms (retry.DefaultBackoff-like). */
  readonly retryDelaysMs?: readonly number[];
}

const DEFAULT_DELAYS_MS = [10, 50, 250, 1000, 2000];
/** Passes over the objects that failed (kube polls its hook for 30s). */
const PASSES = 3;
const PASS_DELAY_MS = 1000;

type Kind = ReconcileOutcome['kind'];

interface Item { readonly kind: Kind; readonly store: ResourceStore<KubeObject>; readonly object: KubeObject }

const sleep = (ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve) => {
  if (signal.aborted) { resolve(); return; }
  const t = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = (): void => { clearTimeout(t); resolve(); };
  signal.addEventListener('abort', onAbort, { once: true });
});

/** Lost races and transient unavailability: reconcile again. */
const retriable = (err: unknown): boolean => isConflict(err) || isAlreadyExists(err) || isNotFound(err)
  || (isStatusError(err) && (err.status.reason === 'ServiceUnavailable' || err.status.reason === 'Timeout' || err.status.reason === 'ServerTimeout'));

/**
 * Runs the hook once (`start`); `healthCheck` (poststarthook/rbac/bootstrap-roles) turns healthy
 * when it has finished. Failures are reported and do not stop the other objects, as in kube.
 */
export class RBACBootstrapController {
  readonly healthCheck: HealthCheck;
  private readonly policy: BootstrapPolicy;
  private readonly warn: (message: string) => void;
  private readonly delays: readonly number[];
  private readonly abort = new AbortController();
  private done = false;

  constructor(private readonly stores: RBACStores, opts: RBACBootstrapOptions = {}) {
    this.policy = opts.policy ?? bootstrapPolicy();
    this.warn = opts.warn ?? ((m) => console.warn(m));
    this.delays = opts.retryDelaysMs ?? DEFAULT_DELAYS_MS;
    this.healthCheck = {
      name: 'poststarthook/rbac/bootstrap-roles',
      check: () => { if (!this.done) throw new Error('not finished'); },
    };
  }

  /** Reconciles the whole policy; resolves with what happened to each object. Never rejects. */
  async start(): Promise<ReconcileOutcome[]> {
    const ctx = (ns: string): RequestContext => systemContext(ns, this.abort.signal);
    try {
      await this.prime(ctx);
    } catch (err) {
      this.warn(`rbac bootstrap: migrating older defaults: ${String(err)}`);
    }
    const items: Item[] = [
      ...this.policy.clusterRoles.map((o) => ({ kind: 'ClusterRole' as const, store: this.stores.clusterRoles, object: o })),
      ...this.policy.clusterRoleBindings.map((o) => ({ kind: 'ClusterRoleBinding' as const, store: this.stores.clusterRoleBindings, object: o })),
      ...this.policy.roles.map((o) => ({ kind: 'Role' as const, store: this.stores.roles, object: o })),
      ...this.policy.roleBindings.map((o) => ({ kind: 'RoleBinding' as const, store: this.stores.roleBindings, object: o })),
    ];
    const outcomes = new Map<Item, ReconcileOutcome>();
    let pending = items;
    for (let pass = 0; pass < PASSES && pending.length > 0 && !this.abort.signal.aborted; pass++) {
      if (pass > 0) await sleep(PASS_DELAY_MS, this.abort.signal);
      for (const item of pending) outcomes.set(item, await this.reconcileWithRetries(item, ctx));
      pending = pending.filter((i) => outcomes.get(i)?.error !== undefined);
    }
    const out = items.flatMap((i) => outcomes.get(i) ?? []);
    for (const o of out) {
      if (o.error !== undefined) this.warn(`rbac bootstrap: unable to reconcile ${o.kind} ${o.namespace === '' ? '' : `${o.namespace}/`}${o.name}: ${String(o.error)}`);
      else if (o.protected && o.operation !== 'None') {
        this.warn(`rbac bootstrap: skipped reconcile-protected ${o.kind} ${o.namespace === '' ? '' : `${o.namespace}/`}${o.name} missing defaults`);
      }
    }
    this.done = true;
    return out;
  }

  /** Ends pending retries. */
  stop(): void {
    this.abort.abort();
  }

  private async reconcileWithRetries(item: Item, ctx: (ns: string) => RequestContext): Promise<ReconcileOutcome> {
    const namespace = item.object.metadata.namespace ?? '';
    const name = item.object.metadata.name ?? '';
    let last: unknown;
    for (let attempt = 0; attempt <= this.delays.length; attempt++) {
      if (attempt > 0) await sleep(this.delays[attempt - 1] ?? 0, this.abort.signal);
      if (this.abort.signal.aborted) break;
      try {
        const r = await this.reconcileOnce(item, ctx(namespace));
        return { kind: item.kind, namespace, name, ...r };
      } catch (err) {
        last = err;
        if (!retriable(err)) break;
      }
    }
    return { kind: item.kind, namespace, name, operation: 'None', protected: false, error: last ?? new Error('stopped') };
  }

  private async reconcileOnce(item: Item, ctx: RequestContext): Promise<{ operation: ReconcileOperation; protected: boolean }> {
    const { store } = item;
    const name = item.object.metadata.name ?? '';
    const existing = await getOrUndefined(store, ctx, name);
    const isRole = item.kind === 'ClusterRole' || item.kind === 'Role';
    const r = isRole
      ? reconcileRole(existing as RuleOwner | undefined, item.object as RuleOwner)
      : reconcileBinding(existing as Binding | undefined, item.object as Binding);
    if (r.protected || r.operation === 'None') return { operation: r.operation, protected: r.protected };
    const obj = r.object as KubeObject;
    switch (r.operation) {
      case 'Create':
        await this.create(store, ctx, obj);
        break;
      case 'Update':
        await store.update(ctx, name, { updatedObject: () => structuredClone(obj) }, undefined, undefined, false, { dryRun: false });
        break;
      case 'Recreate': {
        const uid = existing?.metadata.uid;
        await store.delete(ctx, name, undefined, uid !== undefined ? { preconditions: { uid } } : {});
        await this.create(store, ctx, obj);
        break;
      }
    }
    return { operation: r.operation, protected: false };
  }

  private async create(store: ResourceStore<KubeObject>, ctx: RequestContext, obj: KubeObject): Promise<void> {
    const copy = structuredClone(obj);
    delete copy.metadata.resourceVersion;
    // The policy is written fully defaulted, in kube's wire shape (no empty apiGroup on service accounts).
    if (ctx.namespace !== '') await this.ensureNamespace(ctx.namespace);
    await store.create(ctx, copy, undefined, { dryRun: false });
  }

  private async ensureNamespace(namespace: string): Promise<void> {
    const namespaces = this.stores.namespaces;
    if (namespaces === undefined) return;
    const ctx = systemContext('', this.abort.signal);
    if (await getOrUndefined(namespaces, ctx, namespace) !== undefined) return;
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
    namespaces.definition.defaults?.(ns);
    try {
      await namespaces.create(ctx, ns, undefined, { dryRun: false });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }

  /**
   * Upgrades from older defaults: custom rules of a pre-aggregation admin/edit/view move to the
   * system:aggregate-to-* role, and a split binding starts with its source's subjects.
   */
  private async prime(ctx: (ns: string) => RequestContext): Promise<void> {
    const c = ctx('');
    const roles = this.stores.clusterRoles;
    for (const [oldName, newName] of Object.entries(this.policy.clusterRolesToAggregate)) {
      if (await getOrUndefined(roles, c, newName) !== undefined) continue;
      const old = await getOrUndefined(roles, c, oldName) as ClusterRole | undefined;
      if (old === undefined) continue;
      if (old.aggregationRule !== undefined) return;
      const migrated: ClusterRole = { ...structuredClone(old), metadata: { ...structuredClone(old.metadata), name: newName } };
      for (const k of ['resourceVersion', 'uid', 'creationTimestamp', 'managedFields'] as const) delete migrated.metadata[k];
      await createTolerant(roles, c, migrated as KubeObject);
    }
    const bindings = this.stores.clusterRoleBindings;
    for (const [sourceName, template] of this.policy.clusterRoleBindingsToSplit) {
      const source = await getOrUndefined(bindings, c, sourceName) as ClusterRoleBinding | undefined;
      if (source === undefined) continue;
      if (await getOrUndefined(bindings, c, template.metadata.name ?? '') !== undefined) continue;
      const split: ClusterRoleBinding = structuredClone(template);
      if (source.subjects !== undefined) split.subjects = structuredClone(source.subjects); else delete split.subjects;
      if (source.metadata.labels !== undefined) split.metadata.labels = { ...source.metadata.labels }; else delete split.metadata.labels;
      if (source.metadata.annotations !== undefined) split.metadata.annotations = { ...source.metadata.annotations };
      else delete split.metadata.annotations;
      await createTolerant(bindings, c, split as KubeObject);
    }
  }
}

async function getOrUndefined(store: ResourceStore<KubeObject>, ctx: RequestContext, name: string): Promise<KubeObject | undefined> {
  try {
    return await store.get(ctx, name, {});
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function createTolerant(store: ResourceStore<KubeObject>, ctx: RequestContext, obj: KubeObject): Promise<void> {
  try {
    await store.create(ctx, obj, undefined, { dryRun: false });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}
