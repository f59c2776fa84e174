// certificates.k8s.io: v1 CertificateSigningRequests (status and approval subresources);
// v1beta1 (off by default) ClusterTrustBundles and PodCertificateRequests; v1alpha1 (off by
// default) ClusterTrustBundles with the v1beta1 shape (identity, stored as v1beta1).
// Counterpart of pkg/registry/certificates/rest.
import type { APIGroupDefinition } from '../../registry/rest/group.ts';
import { clusterTrustBundles } from './clustertrustbundle/clustertrustbundle.ts';
import { certificateSigningRequests } from './csr/csr.ts';
import { podCertificateRequests } from './podcertificaterequest/podcertificaterequest.ts';

export const certificatesGroup: APIGroupDefinition = {
  group: 'certificates.k8s.io',
  versions: [
    { version: 'v1', resources: [certificateSigningRequests] },
    { version: 'v1beta1', resources: [clusterTrustBundles, podCertificateRequests] },
    { version: 'v1alpha1', resources: [clusterTrustBundles] },
  ],
};
