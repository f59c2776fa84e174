// What the admission policy plugins (ValidatingAdmissionPolicy, MutatingAdmissionPolicy) share:
// the policy source (policies and bindings followed through shared informers, compiled once per
// policy version), params collected for a binding, the AdmissionRequest and namespace values CEL
// sees, the per-request caching authorizer and the resources no policy applies to.
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/generic/{policy_source,policy_dispatcher}.go,
// k8s.io/apiserver/pkg/admission/plugin/cel/activation.go (CreateAdmissionRequest, CreateNamespaceObject)
// and k8s.io/apiserver/pkg/admission/plugin/authorizer/caching_authorizer.go.
import { newForbidden, type StatusError } from '../../apimachinery/errors/status-error.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { labelSelectorAsSelector } from '../../apimachinery/labels/label-selector.ts';
import type { SharedInformer } from '../../client/cache/shared-informer.ts';
import type { CelAuthorizer } from '../../cel/index.ts';
import type { ParamKind, ParamRef } from '../../generated/types/admissionregistrationv1.gen.ts';
import type { Attributes } from '../interfaces.ts';
import type { MatchedAs, NamespaceGetter } from './matching.ts';

/** Where the objects of a paramKind are read. */
export interface ParamSource {
  readonly namespaced: boolean;
  get(namespace: string, name: string): Promise<KubeObject | undefined>;
  list(namespace: string): Promise<KubeObject[]>;
}

/** CollectParams: the params a binding selects ([null] without paramKind or paramRef), or the error text. */
export async function collectParams(kind: ParamKind | undefined, source: ParamSource | undefined, ref: ParamRef | undefined,
  namespace: string): Promise<(KubeObject | null)[] | string> {
  if (kind === undefined || ref === undefined) return [null];
  if (source === undefined) return `paramKind kind \`${gvkString(kind)}\` not known`;
  let ns = '';
  if (source.namespaced) {
    ns = ref.namespace !== undefined && ref.namespace !== '' ? ref.namespace : namespace;
    if (ns === '') return 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources';
  } else if (ref.namespace !== undefined && ref.namespace !== '') {
    return 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`';
  }
  let params: KubeObject[];
  if (ref.name !== undefined && ref.name !== '') {
    if (ref.selector !== undefined) return 'paramRef.name and paramRef.selector are mutually exclusive';
    const p = await source.get(ns, ref.name);
    params = p === undefined ? [] : [p];
  } else if (ref.selector !== undefined) {
    let sel;
    try { sel = labelSelectorAsSelector(ref.selector); } catch (err) { return err instanceof Error ? err.message : String(err); }
    params = (await source.list(ns)).filter((o) => sel.matches(o.metadata.labels ?? {}));
  } else {
    return 'one of name or selector must be provided';
  }
  if (params.length === 0 && ref.parameterNotFoundAction === 'Deny') return 'no params found for policy binding with `Deny` parameterNotFoundAction';
  return params;
}

/** Go's GroupVersionKind.String() of a paramKind. */
export function gvkString(kind: ParamKind): string {
  const av = kind.apiVersion ?? '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${kind.kind ?? ''}`;
}

/** The AdmissionRequest CEL sees (CreateAdmissionRequest), in the matched resource and kind. */
export function requestValue(attrs: Attributes, m: MatchedAs): Record<string, unknown> {
  const u = attrs.userInfo;
  return {
    kind: { ...m.kind }, resource: { ...m.resource }, subResource: attrs.subresource,
    requestKind: { group: attrs.kind.group, version: attrs.kind.version, kind: attrs.kind.kind },
    requestResource: { group: attrs.resource.group, version: attrs.resource.version, resource: attrs.resource.resource },
    requestSubResource: attrs.subresource, name: attrs.name, namespace: attrs.namespace, operation: attrs.operation,
    userInfo: { username: u?.name ?? '', uid: u?.uid ?? '', groups: [...(u?.groups ?? [])], extra: u?.extra ?? {} },
    dryRun: attrs.dryRun,
    ...(attrs.options !== undefined ? { options: attrs.options } : {}),
  };
}

/** CreateNamespaceObject: the namespace's identifying metadata, spec and status. */
export function namespaceValue(ns: KubeObject | undefined): unknown {
  if (ns === undefined) return null;
  const m = ns.metadata;
  const meta: Record<string, unknown> = {};
  for (const k of ['name', 'generateName', 'namespace', 'labels', 'annotations', 'creationTimestamp', 'deletionTimestamp',
    'deletionGracePeriodSeconds', 'generation', 'resourceVersion', 'finalizers'] as const) {
    if (m[k] !== undefined) meta[k] = m[k];
  }
  if (m.uid !== undefined) meta.UID = m.uid;
  const o = ns as KubeObject & { spec?: unknown; status?: unknown };
  return { metadata: meta, spec: o.spec ?? {}, status: o.status ?? {} };
}

/** NewCachingAuthorizer: one decision per distinct check within a request, whichever policy asks. */
/** What a policy plugin (validating or mutating) needs: its policy source, namespaces and the authorizer. */
export interface PolicyPluginOptions extends PolicySourceOptions {
  readonly getNamespace: NamespaceGetter;
  readonly authorizer: CelAuthorizer;
}

export function cachingAuthorizer(authz: CelAuthorizer): CelAuthorizer {
  const decisions = new Map<string, ReturnType<CelAuthorizer['authorize']>>();
  return {
    authorize(a) {
      const key = JSON.stringify(a);
      let d = decisions.get(key);
      if (d === undefined) decisions.set(key, d = authz.authorize(a));
      return d;
    },
  };
}

/** Admission configuration resources (no API-based policy applies to them) and the reviews nothing persists. */
const EXCLUDED = new Set([
  'admissionregistration.k8s.io/validatingadmissionpolicies', 'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'admissionregistration.k8s.io/mutatingadmissionpolicies', 'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
  'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews',
]);

const byName = (a: KubeObject, b: KubeObject): number => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Whether no API-based policy applies to the request's resource. */
export const isExcludedFromPolicies = (group: string, resource: string): boolean => EXCLUDED.has(`${group}/${resource}`);

const READY_TIMEOUT_MS = 10_000;
const READY_POLL_MS = 50;

/**
 * admission.NewForbidden: the request's name, else the object's name or generateName, else
 * "Unknown" (the name is not generated yet when admission runs).
 */
export function notReady(attrs: Attributes): StatusError {
  const m = attrs.object?.metadata;
  const name = attrs.name !== '' ? attrs.name : (m?.name ?? '') !== '' ? m?.name ?? '' : (m?.generateName ?? '') !== '' ? m?.generateName ?? '' : 'Unknown';
  return newForbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, name, 'not yet ready to handle request');
}

/** The policies' and bindings' informers and where their paramKinds' objects are read. */
export interface PolicySourceOptions {
  readonly policies: SharedInformer<KubeObject>;
  readonly bindings: SharedInformer<KubeObject>;
  /** Where a paramKind's objects are read; undefined when the kind is not served. */
  readonly params: (kind: ParamKind) => ParamSource | undefined;
  /** How long a request waits for the informers' first sync (kube: 10s). */
  readonly readyTimeoutMs?: number;
}

/** A policy with its bindings (sorted by name) and, when its paramKind does not resolve, that error. */
export interface PolicyHook<C, B> {
  readonly compiled: C;
  readonly bindings: readonly B[];
  readonly params?: ParamSource | undefined;
  readonly configurationError?: string | undefined;
}

type PolicyObject = { readonly spec?: { readonly paramKind?: ParamKind | undefined } | undefined };
type BindingObject = { readonly spec?: { readonly policyName?: string | undefined } | undefined };

export class PolicySource<P extends PolicyObject, B extends BindingObject, C> {
  private hooks: readonly PolicyHook<C, B>[] = [];
  private dirty = true;
  private bindingCount = 0;
  private readonly compiled = new WeakMap<object, C>();

  /** `views` type the informers' objects (the informers hold KubeObjects). */
  constructor(private readonly opts: PolicySourceOptions, private readonly compile: (policy: P) => C,
    private readonly views: { readonly policy: (o: KubeObject) => P; readonly binding: (o: KubeObject) => B }) {
    const touch = (): void => { this.dirty = true; this.bindingCount = opts.bindings.list().length; };
    opts.policies.addEventHandler({ onAdd: touch, onUpdate: touch, onDelete: touch });
    opts.bindings.addEventHandler({ onAdd: touch, onUpdate: touch, onDelete: touch });
  }

  /** Whether any binding exists (no binding: no policy applies). */
  get any(): boolean { return this.bindingCount > 0; }

  /** Whether both informers have listed (kube's policySource.HasSynced): before that, requests wait. */
  hasSynced(): boolean { return this.opts.policies.hasSynced() && this.opts.bindings.hasSynced(); }

  /**
   * Handler.WaitForReady then Dispatch's refusal: a request waits for the first sync, up to
   * kube's 10 seconds, then is refused with 403 `not yet ready to handle request`.
   */
  async waitForReady(attrs: Attributes, timeoutMs = this.opts.readyTimeoutMs ?? READY_TIMEOUT_MS): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.hasSynced()) {
      if (Date.now() >= until) throw notReady(attrs);
      await new Promise((r) => setTimeout(r, READY_POLL_MS));
    }
  }

  current(): readonly PolicyHook<C, B>[] {
    if (!this.dirty) return this.hooks;
    this.dirty = false;
    const policies = new Map<string, P>();
    for (const p of this.opts.policies.list()) policies.set(p.metadata.name ?? '', this.views.policy(p));
    const bindings = new Map<string, B[]>();
    for (const b of [...this.opts.bindings.list()].sort(byName)) {
      const binding = this.views.binding(b);
      const name = binding.spec?.policyName ?? '';
      bindings.set(name, [...(bindings.get(name) ?? []), binding]);
    }
    const hooks: PolicyHook<C, B>[] = [];
    for (const name of [...bindings.keys()].sort()) {
      const policy = policies.get(name);
      if (policy === undefined) continue;
      let compiled = this.compiled.get(policy);
      if (compiled === undefined) this.compiled.set(policy, compiled = this.compile(policy));
      const kind = policy.spec?.paramKind;
      const params = kind === undefined ? undefined : this.opts.params(kind);
      const configurationError = kind !== undefined && params === undefined ? `failed to find resource referenced by paramKind: '${gvkString(kind)}'` : undefined;
      hooks.push({ compiled, bindings: bindings.get(name) ?? [], params, configurationError });
    }
    // A paramKind not served yet (its CRD not created) is looked up again on the next request.
    if (hooks.some((h) => h.configurationError !== undefined)) this.dirty = true;
    return this.hooks = hooks;
  }
}

