// MutatingAdmissionWebhook's dispatcher: the webhooks one after the other in kube's order, each
// seeing the object as the previous one left it, in the version it registered for; a JSON patch
// in the answer is applied, decoded into the type (with its defaults) and written back to the
// request's object. reinvocationPolicy IfNeeded: a webhook called before a later change to the
// object is called once more in the second round of the mutating chain.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/{dispatcher.go,reinvocationcontext.go}.
import { newInternalError, StatusError } from '../../apimachinery/errors/status-error.ts';
import { goQuote } from '../../apimachinery/goformat/index.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { deepEqual } from '../../apimachinery/validation/object-meta.ts';
import { addAuditAnnotation } from '../audit-annotations.ts';
import { observeWebhookFailOpen } from '../metrics.ts';
import { reinvocationContext, type Attributes } from '../interfaces.ts';
import type { WebhookAccessor } from './accessor.ts';
import type { Invocation } from './admission-review.ts';
import { callWebhook, failure, versionedAsync, type WebhookCaller } from './call.ts';
import { CallingWebhookError } from './errors.ts';
import { shouldCallHook, type MatchConditionsFn, type NamespaceGetter } from './matching.ts';

export const MUTATING_PLUGIN_NAME = 'MutatingAdmissionWebhook';

export interface DispatchDeps {
  readonly getNamespace: NamespaceGetter;
  readonly caller: WebhookCaller;
  readonly matchConditions?: MatchConditionsFn | undefined;
}

/** webhookReinvokeContext: kept across the two rounds in the request's reinvocation context. */
interface ReinvokeState {
  lastOutput: unknown;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

function requireReinvoking(st: ReinvokeState): void {
  for (const uid of st.previouslyInvoked) st.reinvoke.add(uid);
  st.previouslyInvoked.clear();
}

/** Replaces the content of the request's object in place: the handler keeps its reference. */
function writeBack(target: KubeObject, next: KubeObject): void {
  if (target === next) return;
  for (const k of Object.keys(target)) Reflect.deleteProperty(target, k);
  Object.assign(target, next);
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Calls one mutating webhook; resolves whether its patch changed the object. */
async function callMutatingHook(ctx: RequestContext, h: WebhookAccessor, inv: Invocation, attrs: Attributes, caller: WebhookCaller): Promise<boolean> {
  const object = await versionedAsync(attrs, inv.kind, attrs.object);
  const oldObject = await versionedAsync(attrs, inv.kind, attrs.oldObject);
  const result = await callWebhook(ctx, h, inv, attrs, { object, oldObject }, caller, true);
  if (result.patch === '') return false;
  let ops: unknown;
  try {
    ops = JSON.parse(result.patch);
    if (!Array.isArray(ops)) throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  } catch (err) {
    throw new CallingWebhookError(h.name, `received undecodable patch in webhook response: ${message(err)}`);
  }
  if (ops.length === 0) return false;
  if (object === undefined || attrs.object === undefined || attrs.interfaces === undefined) {
    throw newInternalError(`admission webhook ${goQuote(h.name)} attempted to modify the object, which is not supported for this operation`);
  }
  if (result.patchType !== 'JSONPatch') throw new CallingWebhookError(h.name, `unsupported patch type ${goQuote(result.patchType)}`);
  let patched: unknown;
  try {
    patched = attrs.interfaces.jsonPatch(JSON.parse(JSON.stringify(object)) as Record<string, unknown>, ops);
  } catch (err) {
    throw newInternalError(message(err));
  }
  // Decoded into the type of the version the webhook saw, then back to the request's form.
  const next = attrs.interfaces.decode(patched, inv.kind);
  const changed = !deepEqual(JSON.parse(JSON.stringify(object)), JSON.parse(JSON.stringify(attrs.interfaces.goJSON(next))));
  const hubVersion = { ...inv.kind, ...groupVersionOf(attrs.object.apiVersion ?? '') };
  let hub: KubeObject;
  try {
    const convertAsync = attrs.interfaces.convertAsync;
    hub = convertAsync === undefined ? attrs.interfaces.convert(next, hubVersion) : await convertAsync(next, hubVersion);
  } catch (err) {
    throw err instanceof StatusError ? err : newInternalError(message(err));
  }
  writeBack(attrs.object, hub);
  return changed;
}

function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

const annotationValue = (configuration: string, webhook: string, mutated: boolean): string =>
  JSON.stringify({ configuration, webhook, mutated });

/** Dispatch: rejects with the StatusError that refuses the request. */
export async function dispatchMutating(ctx: RequestContext, attrs: Attributes, hooks: readonly WebhookAccessor[], deps: DispatchDeps): Promise<void> {
  const rc = reinvocationContext(attrs);
  let st = rc.values.get(MUTATING_PLUGIN_NAME) as ReinvokeState | undefined;
  if (st === undefined) {
    st = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() };
    rc.values.set(MUTATING_PLUGIN_NAME, st);
  }
  const reinvoke = rc.isReinvoke;
  // Another plugin changed the object since the webhooks last saw it: every webhook that asked is called again.
  if (reinvoke && !deepEqual(st.lastOutput, attrs.object)) requireReinvoking(st);
  try {
    for (const [i, hook] of hooks.entries()) {
      const inv = await shouldCallHook(hook, attrs, deps.getNamespace, deps.matchConditions);
      if (inv instanceof StatusError) throw inv;
      if (inv === undefined) continue;
      // A webhook is never called for the first time in the second round.
      if (reinvoke && !st.reinvoke.has(hook.uid)) continue;
      const round = reinvoke ? 1 : 0;
      let changed = false;
      let err: unknown;
      try {
        changed = await callMutatingHook(ctx, hook, inv, attrs, deps.caller);
      } catch (e) {
        err = e;
      }
      addAuditAnnotation(ctx, `mutation.webhook.admission.k8s.io/round_${round}_index_${i}`, annotationValue(hook.configurationName, hook.name, changed));
      if (changed) {
        requireReinvoking(st);
        rc.shouldReinvoke = true;
      }
      if (hook.spec.reinvocationPolicy === 'IfNeeded') st.previouslyInvoked.add(hook.uid);
      if (err === undefined) continue;
      const out = failure(ctx, hook, err, () => {
        observeWebhookFailOpen(hook.name, 'admit');
        addAuditAnnotation(ctx, `failed-open.mutation.webhook.admission.k8s.io/round_${round}_index_${i}`, hook.name);
      });
      if (out !== undefined) throw out;
    }
  } finally {
    st.lastOutput = attrs.object === undefined ? undefined : structuredClone(attrs.object);
  }
}
