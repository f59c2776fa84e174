// certificates.k8s.io wire types: v1 CertificateSigningRequest, v1beta1 ClusterTrustBundle and
// PodCertificateRequest (fields kapi reads). Byte fields are base64 strings on the wire.
// Counterpart of k8s.io/api/certificates/v1 and k8s.io/api/certificates/v1beta1.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';

export interface CertificateSigningRequestCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  spec?: {
    request?: string;
    signerName?: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: {
    conditions?: CertificateSigningRequestCondition[];
    certificate?: string;
  };
}

export interface ClusterTrustBundle extends KubeObject {
  spec?: { signerName?: string; trustBundle?: string };
}

export interface PodCertificateRequest extends KubeObject {
  spec?: {
    signerName?: string;
    podName?: string;
    podUID?: string;
    serviceAccountName?: string;
    serviceAccountUID?: string;
    nodeName?: string;
    nodeUID?: string;
    maxExpirationSeconds?: number;
    pkixPublicKey?: string;
    proofOfPossession?: string;
    stubPKCS10Request?: string;
  };
  status?: { conditions?: Record<string, unknown>[]; certificateChain?: string };
}
