// PodCertificateRequests (certificates.k8s.io/v1beta1, off by default): namespaced, created by
// kubelets for pods, answered by signers through /status. Light validation: required fields,
// signer name, a spec fixed after create.
// Counterpart of pkg/registry/certificates/podcertificaterequest.
import { fieldPath, invalid, required, type FieldError } from '../../../apimachinery/errors/field-errors.ts';
import { deepEqual, nameIsDNSSubdomain, validateObjectMeta } from '../../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, nameColumn, specStatusStrategy, statusStrategy } from '../../../registry/rest/kit.ts';
import { validateSignerName } from '../signer-name.ts';
import type { PodCertificateRequest } from '../v1/types.ts';

type RO<T> = DeepReadonly<T>;
const REQUIRED = ['podName', 'podUID', 'serviceAccountName', 'serviceAccountUID', 'nodeName', 'nodeUID'] as const;

function validatePodCertificateRequest(r: RO<PodCertificateRequest>): FieldError[] {
  const errs = validateObjectMeta(r.metadata, { namespaced: true, nameFn: nameIsDNSSubdomain });
  const spec = r.spec ?? {};
  const p = fieldPath('spec');
  errs.push(...validateSignerName(p.child('signerName'), spec.signerName ?? ''));
  for (const f of REQUIRED) if ((spec[f] ?? '') === '') errs.push(required(p.child(f), ''));
  const max = spec.maxExpirationSeconds;
  if (max !== undefined && (max < 3600 || max > 91 * 86400)) {
    errs.push(invalid(p.child('maxExpirationSeconds'), max, `must be in the range [3600, ${91 * 86400}]`));
  }
  return errs;
}

const strategy = specStatusStrategy<PodCertificateRequest>({
  validate: validatePodCertificateRequest, hasStatus: true, allowUnconditionalUpdate: false,
  validateUpdate: (r, old) => (deepEqual(r.spec ?? null, old.spec ?? null) ? [] : [invalid('spec', r.spec, 'field is immutable')]),
});

export const podCertificateRequests = {
  group: 'certificates.k8s.io', kind: 'PodCertificateRequest', resource: 'podcertificaterequests', singular: 'podcertificaterequest',
  namespaced: true,
  strategy,
  // kube resets metadata here without naming it in the reset fields.
  statusStrategy: statusStrategy(strategy, { resetMetadata: { inResetFields: false } }),
  selectableFields: (r) => ({
    'metadata.name': r.metadata.name ?? '', 'metadata.namespace': r.metadata.namespace ?? '',
    'spec.signerName': r.spec?.signerName ?? '', 'spec.podName': r.spec?.podName ?? '', 'spec.nodeName': r.spec?.nodeName ?? '',
  }),
  table: [nameColumn<PodCertificateRequest>(), ageColumn<PodCertificateRequest>()],
} satisfies ResourceDefinition<PodCertificateRequest>;
