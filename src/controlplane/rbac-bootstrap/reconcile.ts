// What reconciling a default role or binding with the stored one does (pkg/registry/rbac/reconciliation),
// in its union mode: missing labels, annotations, rules, aggregation selectors and subjects are
// added; nothing a user added is removed; an object annotated autoupdate "false" is protected.
import type { LabelSelector } from '../../apimachinery/labels/label-selector.ts';
import type { ObjectMeta } from '../../apimachinery/meta/types.ts';
import type { AggregationRule, PolicyRule, RoleRef, Subject } from '../../apis/rbac/v1/types.ts';
import { covers } from '../../authz/rbac/policy-comparator.ts';
import { AUTOUPDATE_ANNOTATION } from './rule.ts';

export type ReconcileOperation = 'None' | 'Create' | 'Update' | 'Recreate';

/** A Role or ClusterRole. */
export interface RuleOwner { apiVersion?: string; kind?: string; metadata: ObjectMeta; rules?: PolicyRule[]; aggregationRule?: AggregationRule }
/** A RoleBinding or ClusterRoleBinding. */
export interface Binding { apiVersion?: string; kind?: string; metadata: ObjectMeta; subjects?: Subject[]; roleRef: RoleRef }

export interface RoleReconcileResult<T extends RuleOwner> {
  readonly operation: ReconcileOperation;
  /** The stored object says autoupdate "false": it is left as it is, whatever is missing. */
  readonly protected: boolean;
  /** The object to write (for None, the stored one). */
  readonly object: T;
  readonly missingRules: readonly PolicyRule[];
  readonly missingSelectors: readonly LabelSelector[];
}

export interface BindingReconcileResult<T extends Binding> {
  readonly operation: ReconcileOperation;
  readonly protected: boolean;
  readonly object: T;
  readonly missingSubjects: readonly Subject[];
}

const isProtected = (meta: ObjectMeta): boolean => meta.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';

/** `expected`'s entries under `existing`'s: the stored values win; `added` tells whether a key was missing. */
function mergeMap(expected: Readonly<Record<string, string>> | undefined, existing: Readonly<Record<string, string>> | undefined):
  { merged: Record<string, string> | undefined; added: boolean } {
  if (expected === undefined && existing === undefined) return { merged: undefined, added: false };
  const merged = { ...expected, ...existing };
  const added = Object.keys(merged).length !== Object.keys(existing ?? {}).length;
  return { merged, added };
}

/** JSON with keys sorted and empty lists and maps dropped: Go's semantic equality, where nil and empty are equal. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(canonical);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const c = canonical((v as Record<string, unknown>)[k]);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

/** Semantic deep equality: nil and empty lists and maps are equal. */
export const semanticEqual = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The selectors of `servant` that `owner` does not have. */
function missingSelectors(owner: AggregationRule | undefined, servant: AggregationRule | undefined): LabelSelector[] {
  if (servant === undefined) return [];
  const have = owner?.clusterRoleSelectors ?? [];
  return (servant.clusterRoleSelectors ?? []).filter((s) => !have.some((o) => semanticEqual(o, s)));
}

function mergeMetadata(expected: ObjectMeta, existing: ObjectMeta, into: ObjectMeta): boolean {
  const annotations = mergeMap(expected.annotations, existing.annotations);
  const labels = mergeMap(expected.labels, existing.labels);
  if (annotations.merged !== undefined) into.annotations = annotations.merged;
  if (labels.merged !== undefined) into.labels = labels.merged;
  return annotations.added || labels.added;
}

/**
 * Reconciles a default role with the stored one (undefined: absent). The result's object is a copy;
 * neither argument is changed.
 */
export function reconcileRole<T extends RuleOwner>(existing: T | undefined, expected: T): RoleReconcileResult<T> {
  if (existing === undefined) {
    return {
      operation: 'Create', protected: false, object: structuredClone(expected),
      missingRules: expected.rules ?? [], missingSelectors: expected.aggregationRule?.clusterRoleSelectors ?? [],
    };
  }
  const object = structuredClone(existing);
  let update = mergeMetadata(expected.metadata, existing.metadata, object.metadata);

  // The comparator's rules are read-only views; the role gets its own copies.
  const missingRules = structuredClone(covers(existing.rules ?? [], expected.rules ?? []).missing) as PolicyRule[];
  if (missingRules.length > 0) {
    object.rules = [...(object.rules ?? []), ...missingRules];
    update = true;
  }

  const missingSel = missingSelectors(existing.aggregationRule, expected.aggregationRule);
  if (expected.aggregationRule === undefined && existing.aggregationRule !== undefined) {
    // Not an aggregated role by default: the aggregation goes.
    delete object.aggregationRule;
    update = true;
  } else if (missingSel.length > 0) {
    object.aggregationRule = { clusterRoleSelectors: [...(object.aggregationRule?.clusterRoleSelectors ?? []), ...missingSel] };
    update = true;
  }
  return {
    operation: update ? 'Update' : 'None', protected: isProtected(existing.metadata), object,
    missingRules, missingSelectors: missingSel,
  };
}

const subjectEqual = (a: Subject, b: Subject): boolean =>
  (a.kind ?? '') === (b.kind ?? '') && (a.apiGroup ?? '') === (b.apiGroup ?? '')
  && (a.name ?? '') === (b.name ?? '') && (a.namespace ?? '') === (b.namespace ?? '');

const roleRefEqual = (a: RoleRef, b: RoleRef): boolean =>
  (a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.kind ?? '') === (b.kind ?? '') && (a.name ?? '') === (b.name ?? '');

/**
 * Reconciles a default binding with the stored one (undefined: absent). A binding to another role
 * is replaced (Recreate: roleRef cannot change in place); otherwise missing subjects are appended.
 */
export function reconcileBinding<T extends Binding>(existing: T | undefined, expected: T): BindingReconcileResult<T> {
  if (existing === undefined) {
    return { operation: 'Create', protected: false, object: structuredClone(expected), missingSubjects: expected.subjects ?? [] };
  }
  const prot = isProtected(existing.metadata);
  if (!roleRefEqual(existing.roleRef, expected.roleRef)) {
    return { operation: 'Recreate', protected: prot, object: structuredClone(expected), missingSubjects: expected.subjects ?? [] };
  }
  const object = structuredClone(existing);
  let update = mergeMetadata(expected.metadata, existing.metadata, object.metadata);
  const have = existing.subjects ?? [];
  const missingSubjects = (expected.subjects ?? []).filter((s) => !have.some((h) => subjectEqual(h, s)));
  if (missingSubjects.length > 0) {
    object.subjects = [...have, ...missingSubjects];
    update = true;
  }
  return { operation: update ? 'Update' : 'None', protected: prot, object, missingSubjects };
}
