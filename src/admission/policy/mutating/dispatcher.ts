// The MutatingAdmissionPolicy dispatcher: every (policy, binding, param) the request matches, in
// policy-name then binding-name order; each one's match conditions, then its mutations in order,
// each evaluated on the object as the previous left it (in the version the policy matched) and
// written back to the request's object before the next plugin (and validating admission) sees
// it. reinvocationPolicy IfNeeded: a policy applied before a later change to the object is
// applied again in the chain's second round. Errors go through the policy's failurePolicy and
// refuse the request with kube's `policy 'p' with binding 'b' denied request: …` (403).
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/mutating/{dispatcher,reinvocationcontext}.go
// and generic/policy_dispatcher.go (Dispatch).
import { newForbidden, newInternalError, newNotFound, StatusError } from '../../../apimachinery/errors/status-error.ts';
import { goQuote } from '../../../apimachinery/goformat/index.ts';
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { JsonObject } from '../../../apimachinery/patch/json-value.ts';
import type { RequestContext } from '../../../apimachinery/request/context.ts';
import type { GroupVersionKind } from '../../../apimachinery/schema/group-version.ts';
import { deepEqual } from '../../../apimachinery/validation/object-meta.ts';
import { MutationObject, RuntimeCELCostBudget, type CelAuthorizer } from '../../../cel/index.ts';
import type { MutatingAdmissionPolicyBinding } from '../../../generated/types/admissionregistrationv1.gen.ts';
import { reinvocationContext, type Attributes } from '../../interfaces.ts';
import { admissionName } from '../../plugins/limit-ranger.ts';
import { versionedOrConversionError } from '../../webhook/call.ts';
import { cachingAuthorizer, collectParams, namespaceValue, requestValue, type PolicyHook as GenericPolicyHook } from '../generic.ts';
import { bindingMatches, policyMatches, type MatchedAs, type NamespaceGetter } from '../matching.ts';
import { Evaluation, matchConditions, OutOfBudget } from '../validating/validator.ts';
import type { CompiledMutatingPolicy } from './compile.ts';
import { observeMutatingPolicyCheck, policyErrorType } from '../metrics.ts';
import { applyConfiguration, isTestFailure, jsonPatchOperations, MutationError } from './patch.ts';

export const MUTATING_POLICY_PLUGIN_NAME = 'MutatingAdmissionPolicy';

export type MutatingPolicyHook = GenericPolicyHook<CompiledMutatingPolicy, MutatingAdmissionPolicyBinding>;

export interface MutatingDispatchDeps {
  readonly getNamespace: NamespaceGetter;
  readonly authorizer: CelAuthorizer;
}

interface PolicyError {
  readonly policy: CompiledMutatingPolicy;
  readonly binding: string | undefined;
  readonly message: string;
  /** Invalid for errors of evaluation; none (Forbidden) for configuration errors. */
  readonly reason?: 'Invalid';
}

interface Invocation {
  readonly hook: MutatingPolicyHook;
  readonly binding: MutatingAdmissionPolicyBinding;
  readonly matched: MatchedAs;
  readonly param: KubeObject | null;
}

/**
 * The request's objects in each matched kind (VersionedAttributeAccessor): converted once, a
 * CRD's conversion webhook maybe called, until a policy's mutation rewrites the request's object.
 */
class VersionedObjects {
  private readonly byKind = new Map<string, { readonly object: KubeObject | undefined; readonly oldObject: KubeObject | undefined }>();
  constructor(private readonly attrs: Attributes) {}

  /** Rejects with the conversion's own error. */
  async get(kind: GroupVersionKind): Promise<{ readonly object: KubeObject | undefined; readonly oldObject: KubeObject | undefined }> {
    const key = `${kind.group}/${kind.version}/${kind.kind}`;
    let v = this.byKind.get(key);
    if (v === undefined) {
      const oldObject = await versionedOrConversionError(this.attrs, kind, this.attrs.oldObject);
      this.byKind.set(key, v = { oldObject, object: await versionedOrConversionError(this.attrs, kind, this.attrs.object) });
    }
    return v;
  }

  /** The request's object changed: every kind converts it again. */
  invalidate(): void {
    this.byKind.clear();
  }
}

/** policyReinvokeContext, kept across the chain's two rounds. */
interface ReinvokeState {
  lastOutput: unknown;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

function requireReinvoking(st: ReinvokeState): void {
  for (const k of st.previouslyInvoked) st.reinvoke.add(k);
  st.previouslyInvoked.clear();
}

const keyFor = (inv: Invocation): string =>
  JSON.stringify([inv.hook.compiled.policy.metadata?.name ?? '', inv.binding.metadata?.name ?? '', inv.param?.metadata.namespace ?? '', inv.param?.metadata.name ?? '']);

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Replaces the content of the request's object in place: the handler keeps its reference. */
function writeBack(target: KubeObject, next: object): void {
  if (target === next) return;
  for (const k of Object.keys(target)) Reflect.deleteProperty(target, k);
  Object.assign(target, next);
}

function hubVersionOf(attrs: Attributes, kind: GroupVersionKind): GroupVersionKind {
  const av = attrs.object?.apiVersion ?? '';
  const slash = av.indexOf('/');
  return { ...kind, group: slash < 0 ? '' : av.slice(0, slash), version: slash < 0 ? av : av.slice(slash + 1) };
}

function denial(attrs: Attributes, errors: readonly PolicyError[]): StatusError {
  const messages = errors.map((e) => {
    const name = e.policy.policy.metadata?.name ?? '';
    return e.binding !== undefined ? `policy '${name}' with binding '${e.binding}' denied request: ${e.message}` : `policy ${goQuote(name)} denied request: ${e.message}`;
  });
  const base = newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, admissionName(attrs), 'admission request denied by policy').status;
  return new StatusError({
    ...base, message: messages[0] ?? '', reason: errors[0]?.reason ?? base.reason,
    details: { ...base.details, causes: messages.map((m) => ({ message: m })) },
  });
}

/** The invocations a request makes (Dispatch's loop over hooks, bindings and params); configuration errors collected. */
async function invocationsFor(attrs: Attributes, hooks: readonly MutatingPolicyHook[], deps: MutatingDispatchDeps, errors: PolicyError[],
  objects: VersionedObjects): Promise<Invocation[]> {
  const out: Invocation[] = [];
  const configError = (hook: MutatingPolicyHook, err: string, binding?: string): void => {
    errors.push({ policy: hook.compiled, binding, message: `failed to configure ${binding === undefined ? 'policy' : 'binding'}: ${err}` });
  };
  for (const hook of hooks) {
    const m = await policyMatches(hook.compiled.policy.spec?.matchConstraints, attrs, deps.getNamespace);
    if (m instanceof Error) { configError(hook, m.message); continue; }
    if (m === undefined) continue;
    if (hook.configurationError !== undefined) { configError(hook, hook.configurationError); continue; }
    for (const binding of hook.bindings) {
      const name = binding.metadata?.name ?? '';
      const bm = await bindingMatches(binding.spec?.matchResources, attrs, deps.getNamespace);
      if (bm instanceof Error) { configError(hook, bm.message, name); continue; }
      if (!bm) continue;
      try {
        // Converted here, before the params, as kube's generic dispatcher warms its versioned attributes.
        await objects.get(m.kind);
      } catch (err) {
        configError(hook, message(err));
        continue;
      }
      const params = await collectParams(hook.compiled.policy.spec?.paramKind, hook.params, binding.spec?.paramRef, attrs.namespace);
      if (typeof params === 'string') { configError(hook, params, name); continue; }
      const kind = hook.compiled.policy.spec?.paramKind;
      for (const p of params) {
        const param = p === null ? null : { ...p, apiVersion: p.apiVersion ?? kind?.apiVersion, kind: p.kind ?? kind?.kind } as KubeObject;
        out.push({ hook, binding, matched: m, param });
      }
    }
  }
  return out;
}

/** Rejects with the StatusError that refuses the request; changes attrs.object in place. */
export async function dispatchMutating(ctx: RequestContext, attrs: Attributes, hooks: readonly MutatingPolicyHook[], deps: MutatingDispatchDeps): Promise<void> {
  const errors: PolicyError[] = [];
  const objects = new VersionedObjects(attrs);
  const invocations = await invocationsFor(attrs, hooks, deps, errors, objects);
  if (invocations.length > 0) await invoke(ctx, attrs, invocations, deps, errors, objects);
  const failing = errors.filter((e) => e.policy.failurePolicy !== 'Ignore');
  if (failing.length > 0) throw denial(attrs, failing);
}

async function invoke(_ctx: RequestContext, attrs: Attributes, invocations: readonly Invocation[], deps: MutatingDispatchDeps, errors: PolicyError[],
  objects: VersionedObjects): Promise<void> {
  const rc = reinvocationContext(attrs);
  let st = rc.values.get(MUTATING_POLICY_PLUGIN_NAME) as ReinvokeState | undefined;
  if (st === undefined) rc.values.set(MUTATING_POLICY_PLUGIN_NAME, st = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() });
  // Another plugin changed the object since the policies last saw it: every policy that asked runs again.
  if (rc.isReinvoke && !deepEqual(st.lastOutput, attrs.object)) requireReinvoking(st);
  try {
    const isNamespace = attrs.kind.group === '' && attrs.kind.version === 'v1' && attrs.kind.kind === 'Namespace';
    const nsName = isNamespace ? '' : attrs.namespace;
    let namespace: unknown = null;
    if (nsName !== '') {
      const ns = await deps.getNamespace(nsName);
      if (ns === undefined) throw newNotFound({ group: '', resource: 'namespaces' }, nsName);
      namespace = namespaceValue(ns);
    }
    const authorizer = cachingAuthorizer(deps.authorizer);
    const u = attrs.userInfo;
    const user = { name: u?.name ?? '', ...(u?.uid !== undefined ? { uid: u.uid } : {}), groups: u?.groups ?? [], ...(u?.extra !== undefined ? { extra: u.extra } : {}) };
    const requestResource = { group: attrs.resource.group, resource: attrs.resource.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name };
    for (const inv of invocations) {
      const compiled = inv.hook.compiled;
      const bindingName = inv.binding.metadata?.name ?? '';
      const policyMutations = compiled.policy.spec?.mutations ?? [];
      if (compiled.mutations.length !== policyMutations.length) {
        throw newInternalError(`expected ${String(policyMutations.length)} compiled evaluators for policy ${compiled.policy.metadata?.name ?? ''}, got ${String(compiled.mutations.length)}`);
      }
      const kind = inv.matched.kind;
      let versionedObjects;
      try {
        versionedObjects = await objects.get(kind);
      } catch (err) {
        throw err instanceof StatusError ? err : newInternalError(message(err));
      }
      let object = versionedObjects.object as JsonObject | undefined;
      const input = {
        oldObject: versionedObjects.oldObject ?? null, params: inv.param,
        request: requestValue(attrs, inv.matched), user, authorizer, requestResource,
      };
      if (compiled.matchConditions.length > 0) {
        // kube's matcher: its own activation, without the namespace (variables computed there see none either).
        const mev = new Evaluation(compiled, { ...input, object: object ?? null, namespace: null }, true);
        await mev.computeVariables();
        const mc = await matchConditions(compiled, mev);
        if (typeof mc === 'string') { errors.push({ policy: compiled, binding: bindingName, message: mc, reason: 'Invalid' }); continue; }
        if (!mc) continue;
      }
      const key = keyFor(inv);
      if (rc.isReinvoke && !st.reinvoke.has(key)) continue;
      const before = object;
      for (const mutation of compiled.mutations) {
        if (object === undefined) continue;
        const started = process.hrtime.bigint();
        const policyName = compiled.policy.metadata?.name ?? '';
        try {
          // Each mutation has its own activation: the variables see the object the previous mutations left.
          const ev = new Evaluation(compiled, { ...input, object, namespace }, true);
          await ev.computeVariables();
          object = await mutate(ev, mutation, object, attrs, kind);
          observeMutatingPolicyCheck(policyName, bindingName, 'no_error', Number(process.hrtime.bigint() - started) / 1e9);
        } catch (err) {
          observeMutatingPolicyCheck(policyName, bindingName, policyErrorType(true, message(err)), Number(process.hrtime.bigint() - started) / 1e9);
          if (err instanceof StatusError) throw err;
          errors.push({ policy: compiled, binding: bindingName, message: message(err), reason: 'Invalid' });
        }
      }
      if (object !== undefined && before !== object && !deepEqual(before, object)) {
        await writeObject(attrs, kind, object);
        objects.invalidate();
        requireReinvoking(st);
        rc.shouldReinvoke = true;
      }
      if (compiled.policy.spec?.reinvocationPolicy === 'IfNeeded') st.previouslyInvoked.add(key);
    }
  } finally {
    st.lastOutput = attrs.object === undefined ? undefined : structuredClone(attrs.object);
  }
}

/** One mutation (dispatchOne): the object after it, decoded and defaulted in the matched version. */
async function mutate(ev: Evaluation, m: CompiledMutatingPolicy['mutations'][number], object: JsonObject, attrs: Attributes, kind: GroupVersionKind): Promise<JsonObject> {
  if (m.program === undefined) throw new MutationError(m.error ?? '');
  let r;
  try {
    r = await ev.run(m, { left: RuntimeCELCostBudget });
  } catch (err) {
    if (err instanceof OutOfBudget) throw new MutationError(err.message);
    throw err;
  }
  if (r.error !== undefined) throw new MutationError(r.error);
  let patched: unknown;
  if (m.patchType === 'ApplyConfiguration') {
    if (!(r.value instanceof MutationObject)) throw new MutationError('unsupported return type from ApplyConfiguration expression');
    patched = applyConfiguration(object, r.value, attrs.interfaces?.schemaFor?.(kind));
  } else {
    const ops = jsonPatchOperations(r.value);
    try {
      patched = attrs.interfaces === undefined ? object : attrs.interfaces.jsonPatch(object, ops);
    } catch (err) {
      if (isTestFailure(err)) return object;
      throw new MutationError(`JSON Patch: ${message(err)}`);
    }
  }
  if (attrs.interfaces === undefined) return patched as JsonObject;
  // Decoded into the kind (with its defaults), as kube converts the result back to its typed object.
  return JSON.parse(JSON.stringify(attrs.interfaces.goJSON(attrs.interfaces.decode(patched, kind)))) as JsonObject;
}

/** The mutated object (in the matched version) back into the request's object, in the request's version. */
async function writeObject(attrs: Attributes, kind: GroupVersionKind, object: JsonObject): Promise<void> {
  if (attrs.object === undefined) return;
  if (attrs.interfaces === undefined) { writeBack(attrs.object, object); return; }
  const typed = attrs.interfaces.decode(object, kind);
  const convertAsync = attrs.interfaces.convertAsync;
  let hub: KubeObject;
  try {
    hub = convertAsync === undefined ? attrs.interfaces.convert(typed, hubVersionOf(attrs, kind)) : await convertAsync(typed, hubVersionOf(attrs, kind));
  } catch (err) {
    // A CRD's conversion webhook fails with its own text: kube wraps every conversion error.
    throw err instanceof StatusError && convertAsync === undefined ? err : newInternalError(`failed to convert object: ${message(err)}`);
  }
  writeBack(attrs.object, hub);
}
