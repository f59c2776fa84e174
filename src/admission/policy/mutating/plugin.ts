// The MutatingAdmissionPolicy admission plugin: policies and bindings followed through shared
// informers, compiled once per policy version, applied to CREATE, UPDATE and CONNECT requests a
// binding may cover (there is no object to mutate on DELETE). With no binding, a request costs
// one check in handles().
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/mutating/plugin.go.
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../../../generated/types/admissionregistrationv1.gen.ts';
import type { Attributes, Plugin } from '../../interfaces.ts';
import { isExcludedFromPolicies, PolicySource, type PolicyPluginOptions } from '../generic.ts';
import { compileMutatingPolicy } from './compile.ts';
import { dispatchMutating, MUTATING_POLICY_PLUGIN_NAME } from './dispatcher.ts';

export type MutatingPolicyOptions = PolicyPluginOptions;

export function mutatingAdmissionPolicy(opts: MutatingPolicyOptions): Plugin {
  const source = new PolicySource(opts, compileMutatingPolicy, {
    policy: (o) => o as MutatingAdmissionPolicy, binding: (o) => o as MutatingAdmissionPolicyBinding,
  });
  return {
    name: MUTATING_POLICY_PLUGIN_NAME,
    // Until synced every request it would see waits for the policies or is refused.
    handles: (op) => op !== 'DELETE' && (!source.hasSynced() || source.any),
    async admit(ctx, attrs: Attributes) {
      if (isExcludedFromPolicies(attrs.resource.group, attrs.resource.resource)) return;
      await source.waitForReady(attrs);
      await dispatchMutating(ctx, attrs, source.current(), { getNamespace: opts.getNamespace, authorizer: opts.authorizer });
    },
  };
}
