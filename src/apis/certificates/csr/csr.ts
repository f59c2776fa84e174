// CertificateSigningRequests (certificates.k8s.io/v1, short name csr): cluster-scoped, with the
// status and approval subresources, `spec.signerName` as a field selector, and printCertificateSigningRequest.
// Counterpart of pkg/registry/certificates/certificates.
import type { DeepReadonly, ResourceDefinition } from '../../../registry/rest/strategy.ts';
import { ageColumn, column, humanDuration, nameColumn } from '../../../registry/rest/kit.ts';
import type { CertificateSigningRequest } from '../v1/types.ts';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from './strategy.ts';

type CSR = CertificateSigningRequest;

/** extractCSRStatus: Denied over Approved over Pending, then ",Failed" and ",Issued". */
export function csrCondition(csr: DeepReadonly<CSR>): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if ((csr.status?.certificate ?? '') !== '') s += ',Issued';
  return s;
}

export const certificateSigningRequests = {
  group: 'certificates.k8s.io', kind: 'CertificateSigningRequest', resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest', shortNames: ['csr'], namespaced: false,
  strategy: csrStrategy,
  statusStrategy: csrStatusStrategy,
  updateSubresources: { approval: csrApprovalStrategy },
  selectableFields: (csr) => ({ 'metadata.name': csr.metadata.name ?? '', 'spec.signerName': csr.spec?.signerName ?? '' }),
  table: [
    nameColumn<CSR>(),
    ageColumn<CSR>(),
    column<CSR>('SignerName', 'string', (csr) => ((csr.spec?.signerName ?? '') === '' ? '<none>' : csr.spec?.signerName ?? '')),
    column<CSR>('Requestor', 'string', (csr) => csr.spec?.username ?? ''),
    column<CSR>('RequestedDuration', 'string', (csr) => (csr.spec?.expirationSeconds === undefined ? '<none>' : humanDuration(csr.spec.expirationSeconds * 1000))),
    column<CSR>('Condition', 'string', csrCondition),
  ],
} satisfies ResourceDefinition<CSR>;
