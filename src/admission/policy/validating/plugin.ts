// The ValidatingAdmissionPolicy admission plugin: policies and bindings followed through shared
// informers (a change is seen as soon as the watch delivers it), compiled once per policy
// version, dispatched on every request a binding may cover. With no binding, a request costs one
// check in handles().
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go and
// generic/{plugin,policy_source}.go.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { SharedInformer } from '../../../client/cache/shared-informer.ts';
import type { CelAuthorizer } from '../../../cel/index.ts';
import type {
  ParamKind, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding,
} from '../../../generated/types/admissionregistrationv1.gen.ts';
import type { Attributes, Plugin } from '../../interfaces.ts';
import { compilePolicy, type CompiledPolicy } from './compile.ts';
import { dispatch, gvkString, type ParamSource, type PolicyHook } from './dispatcher.ts';
import type { NamespaceGetter } from './matching.ts';

export interface ValidatingPolicyOptions {
  readonly policies: SharedInformer<KubeObject>;
  readonly bindings: SharedInformer<KubeObject>;
  readonly getNamespace: NamespaceGetter;
  /** Where a paramKind's objects are read; undefined when the kind is not served. */
  readonly params: (kind: ParamKind) => ParamSource | undefined;
  readonly authorizer: CelAuthorizer;
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

/** The hooks, rebuilt on the first request after a change; compiled policies reused while the policy object is the same. */
export class PolicySource {
  private hooks: readonly PolicyHook[] = [];
  private dirty = true;
  private bindingCount = 0;
  private readonly compiled = new WeakMap<object, CompiledPolicy>();

  constructor(private readonly opts: ValidatingPolicyOptions) {
    const touch = (): void => { this.dirty = true; this.bindingCount = opts.bindings.list().length; };
    opts.policies.addEventHandler({ onAdd: touch, onUpdate: touch, onDelete: touch });
    opts.bindings.addEventHandler({ onAdd: touch, onUpdate: touch, onDelete: touch });
  }

  /** Whether any binding exists (no binding: no policy applies). */
  get any(): boolean { return this.bindingCount > 0; }

  current(): readonly PolicyHook[] {
    if (!this.dirty) return this.hooks;
    this.dirty = false;
    const policies = new Map<string, ValidatingAdmissionPolicy>();
    for (const p of this.opts.policies.list()) policies.set(p.metadata.name ?? '', p as ValidatingAdmissionPolicy);
    const bindings = new Map<string, ValidatingAdmissionPolicyBinding[]>();
    for (const b of [...this.opts.bindings.list()].sort(byName)) {
      const name = (b as ValidatingAdmissionPolicyBinding).spec?.policyName ?? '';
      bindings.set(name, [...(bindings.get(name) ?? []), b as ValidatingAdmissionPolicyBinding]);
    }
    const hooks: PolicyHook[] = [];
    for (const name of [...bindings.keys()].sort()) {
      const policy = policies.get(name);
      if (policy === undefined) continue;
      let compiled = this.compiled.get(policy);
      if (compiled === undefined) this.compiled.set(policy, compiled = compilePolicy(policy));
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

export function validatingAdmissionPolicy(opts: ValidatingPolicyOptions): Plugin {
  const source = new PolicySource(opts);
  return {
    name: 'ValidatingAdmissionPolicy',
    handles: () => source.any,
    async validate(ctx, attrs: Attributes) {
      if (EXCLUDED.has(`${attrs.resource.group}/${attrs.resource.resource}`)) return;
      await dispatch(ctx, attrs, source.current(), { getNamespace: opts.getNamespace, authorizer: opts.authorizer });
    },
  };
}
