// One call of one webhook: the dry-run check, the review in the webhook's version, the answer
// checked, its audit annotations and warnings recorded, a denial turned into kube's error.
// Shared by both dispatchers; counterpart of callHook / callAttrMutatingHook in
// k8s.io/apiserver/pkg/admission/plugin/webhook/mutating and validating.
import { newInternalError, newTimeoutError, StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { addAuditAnnotation } from '../audit-annotations.ts';
import type { Attributes } from '../interfaces.ts';
import { observeWebhook, observeWebhookRejection } from '../metrics.ts';
import type { WebhookAccessor } from './accessor.ts';
import {
  createAdmissionReview, reviewVersion, verifyAdmissionResponse, type AdmissionResult, type Invocation,
} from './admission-review.ts';
import { CallingWebhookError, dryRunUnsupported, toStatusError } from './errors.ts';
import type { ClientConfig } from './types.ts';

/** What sends an AdmissionReview over HTTPS (src/webhook's client: clientCaller). */
export interface WebhookCaller {
  /**
   * POSTs `body` as JSON to the webhook and resolves its decoded JSON answer. Rejects with an
   * Error whose message is what kube prints after `failed to call webhook: ` (the Go client's
   * text, e.g. `Post "https://...?timeout=10s": dial tcp ...: connect: connection refused`).
   */
  post(webhookName: string, config: ClientConfig, body: unknown, opts: { readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<unknown>;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The request's objects in the invocation's version (VersionedAttributes). */
export function versioned(attrs: Attributes, kind: Invocation['kind'], obj: KubeObject | undefined): KubeObject | undefined {
  if (obj === undefined || attrs.interfaces === undefined) return obj;
  try {
    return attrs.interfaces.goJSON(attrs.interfaces.convert(obj, kind));
  } catch (err) {
    throw newInternalError(message(err));
  }
}

/**
 * versioned, for conversions that may call a CRD's conversion webhook (NewVersionedAttributes):
 * rejects with the conversion's own error, which each dispatcher words its way.
 */
export async function versionedOrConversionError(attrs: Attributes, kind: Invocation['kind'], obj: KubeObject | undefined): Promise<KubeObject | undefined> {
  const convertAsync = attrs.interfaces?.convertAsync;
  if (obj === undefined || attrs.interfaces === undefined || convertAsync === undefined) return versioned(attrs, kind, obj);
  return attrs.interfaces.goJSON(await convertAsync(obj, kind));
}

/** versionedOrConversionError for webhooks: kube's webhook dispatcher answers a failed conversion with an internal error. */
export async function versionedAsync(attrs: Attributes, kind: Invocation['kind'], obj: KubeObject | undefined): Promise<KubeObject | undefined> {
  try {
    return await versionedOrConversionError(attrs, kind, obj);
  } catch (err) {
    throw err instanceof StatusError && err.status.reason === 'InternalError' ? err : newInternalError(message(err));
  }
}

/** kube's timeout for one call: the webhook's timeoutSeconds, cut to what is left of the request's. */
function timeoutMs(ctx: RequestContext, h: WebhookAccessor): number {
  const own = (h.spec.timeoutSeconds ?? 10) * 1000;
  return ctx.deadline === undefined ? own : Math.max(0, Math.min(own, ctx.deadline - Date.now()));
}

/**
 * Calls the webhook with the object (and old object) in the invocation's version. Rejects with a
 * CallingWebhookError (failurePolicy decides), or a StatusError (a denial, a dry run the webhook
 * cannot take).
 */
export async function callWebhook(ctx: RequestContext, h: WebhookAccessor, inv: Invocation, attrs: Attributes,
  objs: { object: KubeObject | undefined; oldObject: KubeObject | undefined }, caller: WebhookCaller, mutating: boolean): Promise<AdmissionResult> {
  // The webhook metrics, as kube's dispatchers record them around each call.
  const start = process.hrtime.bigint();
  const type = mutating ? 'admit' : 'validate';
  try {
    const result = await callWebhookOnce(ctx, h, inv, attrs, objs, caller, mutating);
    observeWebhook(h.name, type, attrs.operation, false, 200, start);
    return result;
  } catch (err) {
    const calling = err instanceof CallingWebhookError;
    const code = err instanceof StatusError ? err.status.code : 0;
    observeWebhook(h.name, type, attrs.operation, true, calling ? 0 : 200, start);
    observeWebhookRejection(h.name, type, attrs.operation, calling ? 'calling_webhook_error' : 'no_error', calling ? 0 : code);
    throw err;
  }
}

async function callWebhookOnce(ctx: RequestContext, h: WebhookAccessor, inv: Invocation, attrs: Attributes,
  objs: { object: KubeObject | undefined; oldObject: KubeObject | undefined }, caller: WebhookCaller, mutating: boolean): Promise<AdmissionResult> {
  if (attrs.dryRun) {
    const se = h.spec.sideEffects;
    if (se === undefined) throw new CallingWebhookError(h.name, 'Webhook SideEffects is nil');
    if (se !== 'None' && se !== 'NoneOnDryRun') throw dryRunUnsupported(h.name);
  }
  const version = reviewVersion(h.spec.admissionReviewVersions);
  if (version === undefined) {
    throw new CallingWebhookError(h.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  }
  const review = createAdmissionReview(version, attrs, inv, objs);
  let answer: unknown;
  try {
    answer = await caller.post(h.name, h.spec.clientConfig ?? {}, review, { timeoutMs: timeoutMs(ctx, h), signal: ctx.signal });
  } catch (err) {
    throw new CallingWebhookError(h.name, `failed to call webhook: ${message(err)}`);
  }
  let result: AdmissionResult;
  try {
    result = verifyAdmissionResponse(version, review.request.uid, mutating, answer);
  } catch (err) {
    throw new CallingWebhookError(h.name, `received invalid webhook response: ${message(err)}`);
  }
  for (const [k, v] of Object.entries(result.auditAnnotations)) addAuditAnnotation(ctx, `${h.name}/${k}`, v);
  for (const w of result.warnings) ctx.warnings.addWarning(w);
  if (!result.allowed) throw toStatusError(h.name, result.result);
  return result;
}

/**
 * What a failed call becomes: nothing with failurePolicy Ignore (unless the request itself ran out
 * of time), kube's 500 with Fail; denials and other errors as they are.
 */
export function failure(ctx: RequestContext, h: WebhookAccessor, err: unknown, onFailOpen: () => void): StatusError | Error | undefined {
  if (!(err instanceof CallingWebhookError)) return err instanceof Error ? err : new Error(String(err));
  if (h.spec.failurePolicy === 'Ignore') {
    onFailOpen();
    if (ctx.signal.aborted) return newTimeoutError('request did not complete within requested timeout', 0);
    return undefined;
  }
  return newInternalError(err);
}
