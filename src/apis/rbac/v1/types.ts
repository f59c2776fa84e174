// Wire shapes (JSON) of rbac.authorization.k8s.io/v1, limited to the fields the server reads.
// Counterpart of k8s.io/api/rbac/v1.
import type { LabelSelector } from '../../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../../apimachinery/meta/types.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface AggregationRule { clusterRoleSelectors?: LabelSelector[] }

export interface Role { apiVersion?: string; kind?: string; metadata: ObjectMeta; rules?: PolicyRule[] }

export interface ClusterRole {
  apiVersion?: string; kind?: string; metadata: ObjectMeta;
  rules?: PolicyRule[];
  aggregationRule?: AggregationRule;
}

export interface Subject { kind?: string; apiGroup?: string; name?: string; namespace?: string }
export interface RoleRef { apiGroup?: string; kind?: string; name?: string }

export interface RoleBinding { apiVersion?: string; kind?: string; metadata: ObjectMeta; subjects?: Subject[]; roleRef: RoleRef }
export interface ClusterRoleBinding { apiVersion?: string; kind?: string; metadata: ObjectMeta; subjects?: Subject[]; roleRef: RoleRef }
