// ServiceAccounts (pkg/registry/core/serviceaccount). The token subresource is served elsewhere.
import { repeatedMetadataErrors, validateObjectMeta, validateServiceAccountName } from '../../../apimachinery/validation/object-meta.ts';
import type { ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import type { ServiceAccount } from '../v1/types.ts';

// Secret references keep only their name (cleanSecretReferences).
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets !== undefined) sa.secrets = sa.secrets.map((s) => (s.name === undefined ? {} : { name: s.name }));
}

export const serviceAccounts = {
  group: '', kind: 'ServiceAccount', resource: 'serviceaccounts', singular: 'serviceaccount', shortNames: ['sa'],
  namespaced: true,
  strategy: specStatusStrategy<ServiceAccount>({
    prepareForCreate: (_ctx, sa) => cleanSecretReferences(sa),
    validate: (sa) => validateObjectMeta(sa.metadata, { namespaced: true, nameFn: validateServiceAccountName }),
    prepareForUpdate: (_ctx, sa) => cleanSecretReferences(sa),
    // ValidateServiceAccountUpdate runs the metadata checks of update and create again, besides
    // the generic ones, so a bad label or annotation is reported twice as often
    revalidateOnUpdate: false,
    validateUpdate: (sa, old) => repeatedMetadataErrors(sa.metadata, old.metadata, { update: true, create: { namespaced: true, nameFn: validateServiceAccountName } }),
  }),
  table: [
    // kube 1.36 prints no Secrets column: token Secrets are no longer listed in serviceaccounts.
    nameColumn<ServiceAccount>(),
    ageColumn<ServiceAccount>(),
  ],
} satisfies ResourceDefinition<ServiceAccount>;
