// The RBAC authorizer's view of roles and bindings: four list+watch followers (kube's informers
// and listers) kept in memory, so a request is authorized without reading storage. Bindings are
// indexed by the users and groups they name, so a request only looks at the bindings that can
// apply to its user.
// Counterpart of the RBAC listers plugin/pkg/auth/authorizer/rbac reads
// (k8s.io/client-go/listers/rbac/v1).
import { newNotFound } from '../../apimachinery/errors/status-error.ts';
import type { KubeList, KubeObject } from '../../apimachinery/meta/types.ts';
import { systemContext, type RequestContext } from '../../apimachinery/request/context.ts';
import type { Watch } from '../../apimachinery/watch/event.ts';
import { SERVICE_ACCOUNT_USERNAME_PREFIX } from './rule.ts';
import { RBAC_GROUP, type BindingObject, type ClusterRoleObject, type RBACListers, type RoleObject } from './types.ts';

/** What the cache follows: a registry Store, or anything that lists and watches the same way. */
export interface ListWatcher {
  /** Rejects with a StatusError when storage fails. */
  list(ctx: RequestContext, opts: { readonly resourceVersion?: string }): Promise<KubeList>;
  /** Events after `resourceVersion`; rejects with Expired (410) when it was compacted. */
  watch(ctx: RequestContext, opts: { readonly resourceVersion?: string; readonly allowWatchBookmarks?: boolean }): Promise<Watch>;
}

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

const nameOf = (o: KubeObject): string => o.metadata.name ?? '';
const namespaceOf = (o: KubeObject): string => o.metadata.namespace ?? '';

/** How one followed resource applies what it sees. */
interface Sink {
  reset(items: readonly KubeObject[]): void;
  set(obj: KubeObject): void;
  delete(obj: KubeObject): void;
}

/** Pause before relisting after a failure, and after a watch that simply ended. */
const RETRY_MS = 1000;
const ENDED_MS = 50;

export class RBACCache implements RBACListers {
  private readonly roles = new Map<string, Map<string, RoleObject>>();
  private readonly clusterRoles = new Map<string, ClusterRoleObject>();
  private readonly roleBindings = new Map<string, BindingIndex>();
  private readonly clusterRoleBindings = new BindingIndex();
  private readonly abort = new AbortController();
  private readonly watches = new Set<Watch>();

  constructor(private readonly sources: RBACSources) {}

  /** Lists everything once (resolves when all four are synced), then follows the watches until stop(). */
  async start(): Promise<void> {
    const synced = [
      this.follow(this.sources.roles, this.namespacedSink(this.roles, (o) => o as RoleObject)),
      this.follow(this.sources.clusterRoles, {
        reset: (items) => { this.clusterRoles.clear(); for (const o of items) this.clusterRoles.set(nameOf(o), o as ClusterRoleObject); },
        set: (o) => { this.clusterRoles.set(nameOf(o), o as ClusterRoleObject); },
        delete: (o) => { this.clusterRoles.delete(nameOf(o)); },
      }),
      this.follow(this.sources.roleBindings, {
        reset: (items) => { this.roleBindings.clear(); for (const o of items) this.bindingsOf(namespaceOf(o)).set(o as BindingObject); },
        set: (o) => { this.bindingsOf(namespaceOf(o)).set(o as BindingObject); },
        delete: (o) => { this.roleBindings.get(namespaceOf(o))?.delete(nameOf(o)); },
      }),
      this.follow(this.sources.clusterRoleBindings, {
        reset: (items) => { this.clusterRoleBindings.clear(); for (const o of items) this.clusterRoleBindings.set(o as BindingObject); },
        set: (o) => { this.clusterRoleBindings.set(o as BindingObject); },
        delete: (o) => { this.clusterRoleBindings.delete(nameOf(o)); },
      }),
    ];
    await Promise.all(synced);
  }

  stop(): void {
    this.abort.abort();
    for (const w of this.watches) w.stop();
    this.watches.clear();
  }

  private bindingsOf(namespace: string): BindingIndex {
    let idx = this.roleBindings.get(namespace);
    if (idx === undefined) this.roleBindings.set(namespace, idx = new BindingIndex());
    return idx;
  }

  private namespacedSink<T extends KubeObject>(into: Map<string, Map<string, T>>, cast: (o: KubeObject) => T): Sink {
    const of = (ns: string): Map<string, T> => {
      let m = into.get(ns);
      if (m === undefined) into.set(ns, m = new Map());
      return m;
    };
    return {
      reset: (items) => { into.clear(); for (const o of items) of(namespaceOf(o)).set(nameOf(o), cast(o)); },
      set: (o) => { of(namespaceOf(o)).set(nameOf(o), cast(o)); },
      delete: (o) => { into.get(namespaceOf(o))?.delete(nameOf(o)); },
    };
  }

  /**
   * Lists, then watches from the list's resourceVersion; relists when the watch ends (storage
   * restarted, revision compacted). Resolves after the first list.
   */
  private follow(source: ListWatcher, sink: Sink): Promise<void> {
    return new Promise((resolveSynced, rejectSynced) => {
      let synced = false;
      const signal = this.abort.signal;
      const loop = async (): Promise<void> => {
        while (!signal.aborted) {
          let delay = ENDED_MS;
          try {
            const list = await source.list(systemContext(''), {});
            sink.reset(list.items);
            if (!synced) { synced = true; resolveSynced(); }
            const rv = list.metadata.resourceVersion;
            const w = await source.watch(systemContext('', signal), { ...(rv !== undefined ? { resourceVersion: rv } : {}), allowWatchBookmarks: true });
            this.watches.add(w);
            try {
              for await (const ev of w) {
                if (ev.type === 'ADDED' || ev.type === 'MODIFIED') sink.set(ev.object);
                else if (ev.type === 'DELETED') sink.delete(ev.object);
                else if (ev.type === 'ERROR') { delay = RETRY_MS; break; } // relist
              }
            } finally {
              w.stop();
              this.watches.delete(w);
            }
          } catch (err) {
            if (!synced && !signal.aborted) { rejectSynced(err); return; }
            delay = RETRY_MS;
          }
          if (signal.aborted) break;
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, delay);
            signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
          });
        }
        if (!synced) resolveSynced();
      };
      void loop();
    });
  }

  // ---- RBACListers ----

  getRole(namespace: string, name: string): RoleObject {
    const r = this.roles.get(namespace)?.get(name);
    if (r === undefined) throw newNotFound({ group: RBAC_GROUP, resource: 'role' }, name);
    return r;
  }

  getClusterRole(name: string): ClusterRoleObject {
    const r = this.clusterRoles.get(name);
    if (r === undefined) throw newNotFound({ group: RBAC_GROUP, resource: 'clusterrole' }, name);
    return r;
  }

  listRoleBindings(namespace: string, user: UserLike): readonly BindingObject[] {
    return this.roleBindings.get(namespace)?.candidates(user) ?? [];
  }

  listClusterRoleBindings(user: UserLike): readonly BindingObject[] {
    return this.clusterRoleBindings.candidates(user);
  }
}
