// Namespace validation (pkg/apis/core/validation: ValidateNamespace and its update variants).
import { fieldPath, invalid, type FieldError, type FieldPath } from '../../../apimachinery/errors/field-errors.ts';
import { validateNamespaceName, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import { isQualifiedName } from '../../../apimachinery/validation/validation.ts';
import type { DeepReadonly } from '../../../registry/rest/strategy.ts';
import type { Namespace } from '../v1/types.ts';

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Core's finalizer name rule: qualified, and unprefixed names must be standard ones. */
export function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
    return [invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

function validateSpecFinalizers(ns: DeepReadonly<Namespace>): FieldError[] {
  const p = fieldPath('spec', 'finalizers');
  return (ns.spec?.finalizers ?? []).flatMap((f) => validateFinalizerName(f, p));
}

export function validateNamespace(ns: DeepReadonly<Namespace>): FieldError[] {
  return [
    ...validateObjectMeta(ns.metadata, { namespaced: false, nameFn: validateNamespaceName }),
    ...validateSpecFinalizers(ns),
  ];
}

/** The status endpoint: the phase must agree with deletionTimestamp. */
export function validateNamespaceStatusUpdate(ns: DeepReadonly<Namespace>): FieldError[] {
  const phase = ns.status?.phase ?? '';
  const p = fieldPath('status', 'Phase');
  if (ns.metadata.deletionTimestamp === undefined) {
    return phase === 'Active' ? [] : [invalid(p, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [invalid(p, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** ValidateNamespaceFinalizeUpdate: each finalizer checked at its own index. */
export function validateNamespaceFinalizeUpdate(ns: DeepReadonly<Namespace>): FieldError[] {
  const p = fieldPath('spec', 'finalizers');
  return (ns.spec?.finalizers ?? []).flatMap((f, i) => validateFinalizerName(f, p.index(i)));
}
