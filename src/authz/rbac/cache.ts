// The RBAC authorizer's view of roles and bindings: four shared informers and their listers,
// kept in memory, so a request is authorized without reading storage. Bindings are indexed by the
// users and groups they name (an informer index), so a request only looks at the bindings that
// can apply to its user.
// Counterpart of the listers plugin/pkg/auth/authorizer/rbac reads and the informers pkg/kubeapiserver/authorizer gives it.
import { newNotFound } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ListWatcher } from '../../client/cache/list-watch.ts';
import { SharedInformer } from '../../client/cache/shared-informer.ts';
import { SERVICE_ACCOUNT_USERNAME_PREFIX } from './rule.ts';
import { RBAC_GROUP, type BindingObject, type ClusterRoleObject, type RBACListers, type RoleObject } from './types.ts';

/** What the cache follows: a registry Store, or anything that lists and watches the same way. */
export type { ListWatcher } from '../../client/cache/list-watch.ts';

/** Where the cache gets its informers (the server's shared factory); absent: private ones. */
export type InformerFor = (lw: ListWatcher, name: string) => SharedInformer;

export interface RBACSources {
  readonly roles: ListWatcher;
  readonly roleBindings: ListWatcher;
  readonly clusterRoles: ListWatcher;
  readonly clusterRoleBindings: ListWatcher;
}

type UserLike = { readonly name: string; readonly groups: readonly string[] };

/** The index key a subject stands for: a user name (service accounts too) or a group. */
function subjectKeys(binding: BindingObject): string[] {
  const bindingNamespace = binding.metadata.namespace ?? '';
  const keys: string[] = [];
  for (const s of binding.subjects ?? []) {
    const name = s.name ?? '';
    if (s.kind === 'User') keys.push(`u:${name}`);
    else if (s.kind === 'Group') keys.push(`g:${name}`);
    else if (s.kind === 'ServiceAccount') {
      const ns = (s.namespace ?? '') !== '' ? (s.namespace ?? '') : bindingNamespace;
      if (ns !== '') keys.push(`u:${SERVICE_ACCOUNT_USERNAME_PREFIX}${ns}:${name}`);
    }
  }
  return keys;
}

/** Bindings by name, and by the subjects they name. */
export class BindingIndex {
  private readonly byName = new Map<string, BindingObject>();
  private readonly bySubject = new Map<string, Set<string>>();

  get size(): number { return this.byName.size; }

  clear(): void {
    this.byName.clear();
    this.bySubject.clear();
  }

  set(b: BindingObject): void {
    const name = b.metadata.name ?? '';
    this.delete(name);
    this.byName.set(name, b);
    for (const k of subjectKeys(b)) {
      let names = this.bySubject.get(k);
      if (names === undefined) this.bySubject.set(k, names = new Set());
      names.add(name);
    }
  }

  delete(name: string): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.byName.delete(name);
    for (const k of subjectKeys(old)) {
      const names = this.bySubject.get(k);
      names?.delete(name);
      if (names?.size === 0) this.bySubject.delete(k);
    }
  }

  /** The bindings that name the user or one of their groups. */
  candidates(user: UserLike): BindingObject[] {
    const names = new Set<string>(this.bySubject.get(`u:${user.name}`));
    for (const g of user.groups) for (const n of this.bySubject.get(`g:${g}`) ?? []) names.add(n);
    const out: BindingObject[] = [];
    for (const n of names) {
      const b = this.byName.get(n);
      if (b !== undefined) out.push(b);
    }
    return out;
  }
}

const SUBJECT_INDEX = 'subject';

/** The subject index of RoleBindings: namespace-qualified, so that one index serves every namespace. */
const namespacedSubjectKeys = (b: KubeObject): string[] =>
  subjectKeys(b as BindingObject).map((k) => `${b.metadata.namespace ?? ''}\u0000${k}`);

/** The bindings of an index whose keys name the user or one of their groups, each once. */
function candidates(informer: SharedInformer, user: UserLike, prefix = ''): BindingObject[] {
  const out = new Set<KubeObject>(informer.byIndex(SUBJECT_INDEX, `${prefix}u:${user.name}`));
  for (const g of user.groups) for (const b of informer.byIndex(SUBJECT_INDEX, `${prefix}g:${g}`)) out.add(b);
  return [...out] as BindingObject[];
}

export class RBACCache implements RBACListers {
  private readonly roles: SharedInformer;
  private readonly clusterRoles: SharedInformer;
  private readonly roleBindings: SharedInformer;
  private readonly clusterRoleBindings: SharedInformer;
  private readonly owned: SharedInformer[] = [];

  constructor(sources: RBACSources, informerFor?: InformerFor) {
    const informer = (lw: ListWatcher, name: string): SharedInformer => {
      if (informerFor !== undefined) return informerFor(lw, name);
      const inf = new SharedInformer(lw, { name });
      this.owned.push(inf);
      return inf;
    };
    this.roles = informer(sources.roles, 'roles.rbac.authorization.k8s.io');
    this.clusterRoles = informer(sources.clusterRoles, 'clusterroles.rbac.authorization.k8s.io');
    this.roleBindings = informer(sources.roleBindings, 'rolebindings.rbac.authorization.k8s.io');
    this.clusterRoleBindings = informer(sources.clusterRoleBindings, 'clusterrolebindings.rbac.authorization.k8s.io');
    this.roleBindings.addIndexers({ [SUBJECT_INDEX]: namespacedSubjectKeys });
    this.clusterRoleBindings.addIndexers({ [SUBJECT_INDEX]: (b) => subjectKeys(b as BindingObject) });
  }

  /** Resolves when all four informers have synced; rejects when a first list fails. */
  async start(): Promise<void> {
    await Promise.all([this.roles, this.clusterRoles, this.roleBindings, this.clusterRoleBindings].map((i) => i.start()));
  }

  /** Stops the informers the cache made itself (shared ones stop with their factory). */
  stop(): void {
    for (const i of this.owned) i.stop();
  }

  // ---- RBACListers ----

  getRole(namespace: string, name: string): RoleObject {
    const r = this.roles.get(namespace, name) as RoleObject | undefined;
    if (r === undefined) throw newNotFound({ group: RBAC_GROUP, resource: 'role' }, name);
    return r;
  }

  getClusterRole(name: string): ClusterRoleObject {
    const r = this.clusterRoles.get('', name) as ClusterRoleObject | undefined;
    if (r === undefined) throw newNotFound({ group: RBAC_GROUP, resource: 'clusterrole' }, name);
    return r;
  }

  listRoleBindings(namespace: string, user: UserLike): readonly BindingObject[] {
    return candidates(this.roleBindings, user, `${namespace}\u0000`);
  }

  listClusterRoleBindings(user: UserLike): readonly BindingObject[] {
    return candidates(this.clusterRoleBindings, user);
  }
}
