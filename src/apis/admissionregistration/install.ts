// admissionregistration.k8s.io: v1 serves webhook configurations and admission policies with
// their bindings; v1beta1 and v1alpha1 (off by default) serve MutatingAdmissionPolicy and its
// binding in the v1 shape (identity conversions, stored as v1).
// Counterpart of pkg/registry/admissionregistration/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { mutatingAdmissionPolicyBindings, validatingAdmissionPolicyBindings } from './policy/binding.ts';
import { mutatingAdmissionPolicies, validatingAdmissionPolicies } from './policy/policy.ts';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhook/webhook.ts';

const mutatingPolicyResources = [mutatingAdmissionPolicies, mutatingAdmissionPolicyBindings];

export const admissionregistrationGroup: APIGroupDefinition = {
  group: 'admissionregistration.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: [
        ...mutatingPolicyResources, mutatingWebhookConfigurations, validatingAdmissionPolicies,
        validatingAdmissionPolicyBindings, validatingWebhookConfigurations,
      ],
    },
    { version: 'v1beta1', resources: mutatingPolicyResources },
    { version: 'v1alpha1', resources: mutatingPolicyResources },
  ],
};
