// ClusterTrustBundles (certificates.k8s.io v1beta1, v1alpha1; off by default): cluster-scoped
// PEM bundles of trust anchors. A bundle with a signerName is named "<signer with : for />:<name>".
// Counterpart of pkg/registry/certificates/clustertrustbundle.
import { fieldPath, invalid, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { nameIsDNSSubdomain, validateImmutableField, validateObjectMeta, type ValidateNameFunc } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { column, nameColumn, specStatusStrategy } from '../../../registry/rest/kit.ts';
import { checkCertificates } from '../pem.ts';
import { validateSignerName } from '../signer-name.ts';
import type { ClusterTrustBundle } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;

/** ValidateClusterTrustBundleName: the name depends on the signer. */
function clusterTrustBundleNameFn(signerName: string): ValidateNameFunc {
  return (name, prefix) => {
    if (signerName === '') {
      if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
      return nameIsDNSSubdomain(name, prefix);
    }
    const required = `${signerName.replaceAll('/', ':')}:`;
    if (!name.startsWith(required)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
    return nameIsDNSSubdomain(name.slice(required.length), prefix);
  };
}

function validateClusterTrustBundle(b: RO<ClusterTrustBundle>): FieldError[] {
  const signer = b.spec?.signerName ?? '';
  const errs = validateObjectMeta(b.metadata, { namespaced: false, nameFn: clusterTrustBundleNameFn(signer) });
  if (signer !== '') errs.push(...validateSignerName(fieldPath('spec', 'signerName'), signer));
  const problem = checkCertificates(b.spec?.trustBundle ?? '', 'trust anchor');
  if (problem !== undefined) errs.push(invalid(fieldPath('spec', 'trustBundle'), '<value omitted>', problem));
  return errs;
}

export const clusterTrustBundles = {
  group: 'certificates.k8s.io', kind: 'ClusterTrustBundle', resource: 'clustertrustbundles', singular: 'clustertrustbundle',
  namespaced: false,
  strategy: specStatusStrategy<ClusterTrustBundle>({
    validate: validateClusterTrustBundle, allowUnconditionalUpdate: false,
    validateUpdate: (b, old) => validateImmutableField(b.spec?.signerName ?? '', old.spec?.signerName ?? '', fieldPath('spec', 'signerName')),
  }),
  selectableFields: (b) => ({ 'metadata.name': b.metadata.name ?? '', 'spec.signerName': b.spec?.signerName ?? '' }),
  table: [
    nameColumn<ClusterTrustBundle>(),
    column<ClusterTrustBundle>('SignerName', 'string', (b) => ((b.spec?.signerName ?? '') === '' ? '<none>' : b.spec?.signerName ?? '')),
  ],
} satisfies ResourceDefinition<ClusterTrustBundle>;
