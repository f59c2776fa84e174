// The ValidatingAdmissionPolicy admission plugin: policies and bindings followed through shared
// informers (a change is seen as soon as the watch delivers it), compiled once per policy
// version, dispatched on every request a binding may cover. With no binding, a request costs one
// check in handles().
// Counterpart of k8s.io/apiserver/pkg/admission/plugin/policy/validating/plugin.go and
// generic/{plugin,policy_source}.go.
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../generated/types/admissionregistrationv1.gen.ts';
import type { Attributes, Plugin } from '../../interfaces.ts';
import { isExcludedFromPolicies, PolicySource, type PolicyPluginOptions } from '../generic.ts';
import { compilePolicy } from './compile.ts';
import { dispatch } from './dispatcher.ts';

export type ValidatingPolicyOptions = PolicyPluginOptions;

export function validatingAdmissionPolicy(opts: ValidatingPolicyOptions): Plugin {
  const source = new PolicySource(opts, compilePolicy, {
    policy: (o) => o as ValidatingAdmissionPolicy, binding: (o) => o as ValidatingAdmissionPolicyBinding,
  });
  return {
    name: 'ValidatingAdmissionPolicy',
    // Until synced every request is handled: it waits for the policies or is refused.
    handles: () => !source.hasSynced() || source.any,
    async validate(ctx, attrs: Attributes) {
      if (isExcludedFromPolicies(attrs.resource.group, attrs.resource.resource)) return;
      await source.waitForReady(attrs);
      await dispatch(ctx, attrs, source.current(), { getNamespace: opts.getNamespace, authorizer: opts.authorizer });
    },
  };
}
