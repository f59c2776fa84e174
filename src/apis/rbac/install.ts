// rbac.authorization.k8s.io: v1 only (v1alpha1 and v1beta1 are gone from kube-apiserver).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import type { ResourceDefinition } from '../../registry/rest/strategy.ts';
import { clusterRoleBindings } from './clusterrolebinding/clusterrolebinding.ts';
import { clusterRoles } from './clusterrole/clusterrole.ts';
import { roleBindings } from './rolebinding/rolebinding.ts';
import { roles } from './role/role.ts';
import { RBAC_GROUP } from './v1/types.ts';

const erase = <T extends KubeObject>(d: ResourceDefinition<T>): ResourceDefinition<KubeObject> =>
  d as unknown as ResourceDefinition<KubeObject>;

export const rbacGroup: APIGroupDefinition = {
  group: RBAC_GROUP,
  versions: [{ version: 'v1', resources: [erase(clusterRoleBindings), erase(clusterRoles), erase(roleBindings), erase(roles)] }],
};
