// Which rules apply to a user in a namespace (pkg/registry/rbac/validation/rule.go): the rules of
// the roles referenced by every ClusterRoleBinding naming the user (or one of their groups, or
// their service account), then those of the RoleBindings of the namespace. Resolution errors
// (a binding to a missing role) are reported alongside the rules that were found: rules only add
// permissions, so what was found can still allow a request.
import { goQuote } from '../../apimachinery/goformat/index.ts';
import type { UserInfo } from '../../apimachinery/request/context.ts';
import type { BindingObject, PolicyRule, RBACListers, RoleRef, Subject } from './types.ts';

export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';

/** Where a rule came from, for RBAC's "allowed by" reasons. */
export interface RuleSource {
  describe(): string;
}

/** Gets each rule (with its source) or resolution error; returning false stops the walk. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: Error | undefined) => boolean;

function describeSubject(s: Subject, bindingNamespace: string): string {
  const kind = s.kind ?? '';
  const name = s.name ?? '';
  if (kind === 'ServiceAccount') {
    // name/namespace, in this order, as kube prints it.
    const ns = (s.namespace ?? '') !== '' ? (s.namespace ?? '') : bindingNamespace;
    return `${kind} ${goQuote(`${name}/${ns}`)}`;
  }
  return `${kind} ${goQuote(name)}`;
}

function bindingSource(binding: BindingObject, subject: Subject): RuleSource {
  const namespace = binding.metadata.namespace ?? '';
  const name = binding.metadata.name ?? '';
  return {
    describe: () => namespace === ''
      ? `ClusterRoleBinding ${goQuote(name)} of ${binding.roleRef.kind ?? ''} ${goQuote(binding.roleRef.name ?? '')} to ${describeSubject(subject, '')}`
      : `RoleBinding ${goQuote(`${name}/${namespace}`)} of ${binding.roleRef.kind ?? ''} ${goQuote(binding.roleRef.name ?? '')} to ${describeSubject(subject, namespace)}`,
  };
}

/** serviceaccount.MatchesUsername. */
export const serviceAccountMatches = (namespace: string, name: string, username: string): boolean =>
  username === `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;

/** Whether `subject` names `user`; a service account without a namespace means one in `namespace`. */
export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User': return user.name === subject.name;
    case 'Group': return user.groups.includes(subject.name ?? '');
    case 'ServiceAccount': {
      const saNamespace = (subject.namespace ?? '') !== '' ? (subject.namespace ?? '') : namespace;
      if (saNamespace === '') return false;
      return serviceAccountMatches(saNamespace, subject.name ?? '', user.name);
    }
    default: return false;
  }
}

/** The index of the first subject of the binding that names `user`, or -1. */
function appliesTo(user: UserInfo, subjects: readonly Subject[] | undefined, namespace: string): number {
  return (subjects ?? []).findIndex((s) => appliesToUser(user, s, namespace));
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

export class DefaultRuleResolver {
  constructor(private readonly listers: RBACListers) {}

  /**
   * The rules of the role a binding references; throws the lister's not-found error for a missing
   * role and `unsupported role reference kind: "<kind>"` for anything but Role and ClusterRole.
   */
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): readonly PolicyRule[] {
    switch (roleRef.kind) {
      case 'Role': return this.listers.getRole(bindingNamespace, roleRef.name ?? '').rules ?? [];
      case 'ClusterRole': return this.listers.getClusterRole(roleRef.name ?? '').rules ?? [];
      default: throw new Error(`unsupported role reference kind: ${goQuote(roleRef.kind ?? '')}`);
    }
  }

  /** Walks the rules that apply to `user` in `namespace` (cluster-wide first) until `visit` returns false. */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    if (!this.visitBindings(user, '', this.listers.listClusterRoleBindings(user), visit)) return;
    if (namespace === '') return;
    this.visitBindings(user, namespace, this.listers.listRoleBindings(namespace, user), visit);
  }

  private visitBindings(user: UserInfo, namespace: string, bindings: readonly BindingObject[], visit: RuleVisitor): boolean {
    for (const binding of bindings) {
      const i = appliesTo(user, binding.subjects, namespace);
      if (i < 0) continue;
      let rules: readonly PolicyRule[];
      try {
        rules = this.getRoleReferenceRules(binding.roleRef, namespace);
      } catch (err) {
        if (!visit(undefined, undefined, asError(err))) return false;
        continue;
      }
      const subject = binding.subjects?.[i];
      if (subject === undefined) continue;
      const source = bindingSource(binding, subject);
      for (const rule of rules) {
        if (!visit(source, rule, undefined)) return false;
      }
    }
    return true;
  }

  /** Every rule that applies, and the errors met while resolving them. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule !== undefined) rules.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    });
    return { rules, errors };
  }
}
