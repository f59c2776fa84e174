// ValidatingAdmissionWebhook's dispatcher: every webhook that matches is called at once, on the
// final object; the first error (in webhook order) refuses the request.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go.
import { newTimeoutError, StatusError } from '../../apimachinery/errors/status-error.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { addAuditAnnotation } from '../audit-annotations.ts';
import { observeWebhookFailOpen } from '../metrics.ts';
import type { Attributes } from '../interfaces.ts';
import type { WebhookAccessor } from './accessor.ts';
import type { Invocation } from './admission-review.ts';
import { callWebhook, failure, versionedAsync } from './call.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { shouldCallHook } from './matching.ts';
import type { DispatchDeps } from './mutating.ts';

export const VALIDATING_PLUGIN_NAME = 'ValidatingAdmissionWebhook';

/** Dispatch: rejects with the error of the first webhook (in order) that refused or failed closed. */
export async function dispatchValidating(ctx: RequestContext, attrs: Attributes, hooks: readonly WebhookAccessor[], deps: DispatchDeps): Promise<void> {
  const relevant: { hook: WebhookAccessor; inv: Invocation }[] = [];
  for (const hook of hooks) {
    const inv = await shouldCallHook(hook, attrs, deps.getNamespace, deps.matchConditions);
    if (inv instanceof StatusError) throw inv;
    if (inv !== undefined) relevant.push({ hook, inv });
  }
  if (relevant.length === 0) return;
  if (ctx.signal.aborted) throw newTimeoutError('request did not complete within requested timeout', 0);
  // One conversion per version, shared by the webhooks that registered for it.
  type Objects = { object: KubeObject | undefined; oldObject: KubeObject | undefined };
  const byVersion = new Map<string, Objects>();
  for (const { inv } of relevant) {
    const key = `${inv.kind.group}/${inv.kind.version}`;
    if (!byVersion.has(key)) byVersion.set(key, { object: await versionedAsync(attrs, inv.kind, attrs.object), oldObject: await versionedAsync(attrs, inv.kind, attrs.oldObject) });
  }
  const objectsFor = (inv: Invocation): Objects => byVersion.get(`${inv.kind.group}/${inv.kind.version}`) ?? { object: undefined, oldObject: undefined };
  const errors = await Promise.all(relevant.map(async ({ hook, inv }, idx) => {
    try {
      await callWebhook(ctx, hook, inv, attrs, objectsFor(inv), deps.caller, false);
      return undefined;
    } catch (err) {
      return failure(ctx, hook, err, () => {
        observeWebhookFailOpen(hook.name, 'validate');
        addAuditAnnotation(ctx, `failed-open.validating.webhook.admission.k8s.io/round_0_index_${idx}`, hook.name);
      });
    }
  }));
  const first = errors.find((e) => e !== undefined);
  if (first !== undefined) throw first;
}
