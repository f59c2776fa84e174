// The audit annotations admission adds to a request (kube's Attributes.AddAnnotation, which the
// audit filter writes into the request's audit event): webhooks' own auditAnnotations under
// `<webhook>/<key>`, and which webhooks mutated or failed open.
// Counterpart of k8s.io/apiserver/pkg/admission/audit.go (annotations of the attributes record).
import type { RequestContext } from '../apimachinery/request/context.ts';

/**
 * By the request's warning recorder: the one object every RequestContext of a request shares.
 * Nothing is allocated for a request no plugin annotates.
 */
const annotations = new WeakMap<object, Record<string, string>>();

/** Adds an annotation; as kube, a key already set keeps its first value. */
export function addAuditAnnotation(ctx: RequestContext, key: string, value: string): void {
  let a = annotations.get(ctx.warnings);
  if (a === undefined) annotations.set(ctx.warnings, a = {});
  if (!(key in a)) a[key] = value;
  // The request's audit event takes them too (kube's Attributes.AddAnnotation ends in the event).
  ctx.audit?.addAuditAnnotation(key, value);
}

/** The annotations admission recorded for the request of `ctx` (for the audit event). */
export function auditAnnotations(ctx: RequestContext): Readonly<Record<string, string>> {
  return annotations.get(ctx.warnings) ?? {};
}
