// Escalation prevention for the four RBAC resources (pkg/registry/rbac/*/policybased): writing a
// role needs every permission it grants (or `escalate` on it), writing a binding needs every
// permission of the referenced role (or `bind` on it), members of system:masters excepted. The
// check of a create runs before the object is validated; that of an update runs on the updated
// object, and is skipped when only ownerReferences and finalizers change (the garbage collector's
// writes).
import { newBadRequest } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import { newForbiddenError } from '../../authz/forbidden.ts';
import {
  bindingAuthorized, confirmNoEscalation, escalationAllowed, FULL_AUTHORITY, roleEscalationAuthorized,
} from '../../authz/rbac/escalation.ts';
import { DefaultRuleResolver } from '../../authz/rbac/rule.ts';
import { loadRBACSnapshot, type RBACReaders } from '../../authz/rbac/snapshot.ts';
import type { BindingObject, ClusterRoleObject, PolicyRule, RoleObject } from '../../authz/rbac/types.ts';
import type { ResourceStore } from '../../registry/rest/strategy.ts';
import type { UpdatedObjectInfo } from '../../registry/rest/capabilities.ts';
import { RBAC_GROUP } from './v1/types.ts';

/** What the checks need: the server's authorizer (bind, escalate) and storage to resolve rules from. */
export interface RBACPolicy {
  readonly authorizer: Authorizer;
  readonly readers: RBACReaders;
}

/** Throws the 403 when the rules; undefined when allowed. */
type Check = (ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined) => Promise<void>;

/** Go's semantic equality on JSON: a missing field, null, [] and {} are all the same. */
function normalized(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalized);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalized(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v ?? undefined;
}

/** IsOnlyMutatingGCFields: the update changes nothing but ownerReferences and finalizers. */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject): boolean {
  const copy = structuredClone(obj);
  const meta = copy.metadata as Record<string, unknown>;
  const oldMeta = old.metadata as Record<string, unknown>;
  for (const k of ['ownerReferences', 'finalizers', 'selfLink']) {
    if (oldMeta[k] === undefined) delete meta[k]; else meta[k] = oldMeta[k];
  }
  return JSON.stringify(normalized(copy)) === JSON.stringify(normalized(old));
}

/** Wraps the ResourceStore's create and update with `check`, unless the requester is in system:masters or `trusted`. */
function guard<T extends KubeObject>(store: ResourceStore<T>, trusted: (ctx: RequestContext) => Promise<boolean>, check: Check): ResourceStore<T> {
  const bypass = async (ctx: RequestContext): Promise<boolean> => escalationAllowed(ctx.user) || await trusted(ctx);
  const create: ResourceStore<T>['create'] = async (ctx, obj, validate, opts) => {
    if (!(await bypass(ctx))) await check(ctx, obj, undefined);
    return store.create(ctx, obj, validate, opts);
  };
  const update: ResourceStore<T>['update'] = async (ctx, name, info, validateCreate, validateUpdate, forceAllowCreate, opts) => {
    if (await bypass(ctx)) return store.update(ctx, name, info, validateCreate, validateUpdate, forceAllowCreate, opts);
    const checked: UpdatedObjectInfo = {
      ...info,
      updatedObject: async (c, old) => {
        const obj = await info.updatedObject(c, old);
        if (old !== undefined && isOnlyMutatingGCFields(obj, old)) return obj;
        await check(c, obj, old);
        return obj;
      },
    };
    return store.update(ctx, name, checked, validateCreate, validateUpdate, forceAllowCreate, opts);
  };
  return Object.assign(Object.create(store) as ResourceStore<T>, { create, update });
}

const never = (): Promise<boolean> => Promise.resolve(false);

/** ConfirmNoEscalation against storage, as a 403 on `resource` named `name`. */
async function confirm(policy: RBACPolicy, ctx: RequestContext, resource: string, name: string, rules: readonly PolicyRule[],
  message?: string): Promise<void> {
  if (ctx.user === undefined) throw newForbiddenError(RBAC_GROUP, resource, name, 'no user on context');
  const resolver = new DefaultRuleResolver(await loadRBACSnapshot(policy.readers, ctx.namespace));
  const missing = confirmNoEscalation(resolver, ctx.user, ctx.namespace, rules);
  if (missing !== undefined) throw newForbiddenError(RBAC_GROUP, resource, name, message ?? missing);
}

const nameOf = (o: KubeObject): string => o.metadata.name ?? '';

export function roleStorage<T extends KubeObject>(policy: RBACPolicy): (store: ResourceStore<T>) => ResourceStore<T> {
  return (store) => guard(store, (ctx) => roleEscalationAuthorized(ctx.user, ctx.info, policy.authorizer),
    (ctx, obj) => confirm(policy, ctx, 'roles', nameOf(obj), (obj as RoleObject).rules ?? []));
}

const hasAggregationRule = (role: ClusterRoleObject | undefined): boolean =>
  (role?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;

export function clusterRoleStorage<T extends KubeObject>(policy: RBACPolicy): (store: ResourceStore<T>) => ResourceStore<T> {
  return (store) => guard(store, (ctx) => roleEscalationAuthorized(ctx.user, ctx.info, policy.authorizer), async (ctx, obj, old) => {
    const role = obj as ClusterRoleObject;
    await confirm(policy, ctx, 'clusterroles', nameOf(obj), role.rules ?? []);
    // An aggregation rule can gather anything (and prevent tightening): it needs * on *.*.
    if (hasAggregationRule(role) || hasAggregationRule(old as ClusterRoleObject | undefined)) {
      await confirm(policy, ctx, 'clusterroles', nameOf(obj), FULL_AUTHORITY, 'must have cluster-admin privileges to use the aggregationRule');
    }
  });
}

/** Bindings: `bind` on the referenced role, or holding its rules (in the binding's namespace). */
function bindingCheck(policy: RBACPolicy, resource: 'rolebindings' | 'clusterrolebindings'): Check {
  return async (ctx, obj) => {
    const namespace = resource === 'rolebindings' ? ctx.namespace : '';
    if (resource === 'rolebindings' && namespace === '') throw newBadRequest('namespace is required');
    const binding = obj as BindingObject;
    if (await bindingAuthorized(ctx.user, binding.roleRef, namespace, policy.authorizer)) return;
    const resolver = new DefaultRuleResolver(await loadRBACSnapshot(policy.readers, namespace));
    const rules = resolver.getRoleReferenceRules(binding.roleRef, namespace);
    if (ctx.user === undefined) throw newForbiddenError(RBAC_GROUP, resource, nameOf(obj), 'no user on context');
    const missing = confirmNoEscalation(resolver, ctx.user, namespace, rules);
    if (missing !== undefined) throw newForbiddenError(RBAC_GROUP, resource, nameOf(obj), missing);
  };
}

export function roleBindingStorage<T extends KubeObject>(policy: RBACPolicy): (store: ResourceStore<T>) => ResourceStore<T> {
  return (store) => guard(store, never, bindingCheck(policy, 'rolebindings'));
}

export function clusterRoleBindingStorage<T extends KubeObject>(policy: RBACPolicy): (store: ResourceStore<T>) => ResourceStore<T> {
  return (store) => guard(store, never, bindingCheck(policy, 'clusterrolebindings'));
}
