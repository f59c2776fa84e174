// Pieces the four RBAC resources share: the default table (NAME, CREATED AT) of roles, and the
// ROLE/USERS/GROUPS/SERVICEACCOUNTS columns of bindings.
// Counterpart of pkg/printers/internalversion/printers.go (printRole, printRoleBinding).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { DeepReadonly, TableColumn } from '../../registry/rest/strategy.ts';
import { ageColumn, nameColumn } from '../../registry/rest/kit.ts';
import type { RoleRef, Subject } from './v1/types.ts';


/** Roles have no printer: kube's default table convertor shows the name and the creation time (type date). */
export function defaultTableColumns<T extends KubeObject>(): TableColumn<T>[] {
  return [
    nameColumn<T>(),
    { name: 'Created At', type: 'date', cell: (o) => o.metadata.creationTimestamp ?? null },
  ];
}

/** rbac.SubjectsStrings: users, groups and "namespace/name" service accounts, joined for display. */
function subjectsStrings(subjects: DeepReadonly<Subject[]> | undefined): { users: string; groups: string; serviceAccounts: string } {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
    else if (s.kind === 'User') users.push(s.name ?? '');
    else if (s.kind === 'Group') groups.push(s.name ?? '');
  }
  return { users: users.join(', '), groups: groups.join(', '), serviceAccounts: sas.join(', ') };
}

interface Binding extends KubeObject { roleRef: RoleRef; subjects?: Subject[] }

/** printRoleBinding / printClusterRoleBinding: NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export function bindingColumns<T extends Binding>(): TableColumn<T>[] {
  return [
    nameColumn<T>(),
    { name: 'Role', type: 'string', cell: (b) => `${b.roleRef.kind ?? ''}/${b.roleRef.name ?? ''}` },
    ageColumn<T>(),
    { name: 'Users', type: 'string', priority: 1, cell: (b) => subjectsStrings(b.subjects).users },
    { name: 'Groups', type: 'string', priority: 1, cell: (b) => subjectsStrings(b.subjects).groups },
    { name: 'ServiceAccounts', type: 'string', priority: 1, cell: (b) => subjectsStrings(b.subjects).serviceAccounts },
  ];
}
