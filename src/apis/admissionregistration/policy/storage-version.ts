// MutatingAdmissionPolicies and their bindings are served at v1 but stored as v1beta1 in v1.36:
// kube's StorageFactory overrides their storage version for one release (so that a v1.35 server
// reads what v1.36 writes). The two versions have the same fields: only apiVersion changes.
// Counterpart of the ResourceEncodingOverrides in k8s.io/kubernetes/pkg/kubeapiserver/default_storage_factory_builder.go.
import type { KubeObject } from '../../../apimachinery/meta/types.ts';
import type { StorageEncoding } from '../../../registry/rest/strategy.ts';

const SERVED = 'admissionregistration.k8s.io/v1';
const STORED = 'admissionregistration.k8s.io/v1beta1';

/** Stores objects as admissionregistration.k8s.io/v1beta1 and reads them back as v1. */
export const v1beta1Storage: StorageEncoding = {
  version: {
    apiVersion: STORED,
    toStorage: (obj: KubeObject): KubeObject => ({ ...obj, apiVersion: STORED }),
    fromStorage: (obj: KubeObject): KubeObject => ({ ...obj, apiVersion: SERVED }),
  },
};
