// CRD status conditions: set one, keeping lastTransitionTime when the status does not change.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apihelpers (SetCRDCondition).
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../v1/types.ts';

const nowRFC3339 = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

export function setCondition(crd: CustomResourceDefinition, c: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>): void {
  crd.status ??= {};
  const conditions = crd.status.conditions ?? [];
  const i = conditions.findIndex((x) => x.type === c.type);
  const prev = i >= 0 ? conditions[i] : undefined;
  const lastTransitionTime = prev !== undefined && prev.status === c.status && prev.lastTransitionTime !== undefined
    ? prev.lastTransitionTime : nowRFC3339();
  const next: CustomResourceDefinitionCondition = { type: c.type, status: c.status, lastTransitionTime,
    ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.message !== undefined ? { message: c.message } : {}) };
  if (i >= 0) conditions[i] = next; else conditions.push(next);
  crd.status.conditions = conditions;
}
