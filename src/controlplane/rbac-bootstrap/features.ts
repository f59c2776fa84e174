// The feature gates that change kube-apiserver's default RBAC policy, with their v1.36 defaults.
// The policy is built for a set of gates so that `--feature-gates` can change it the way it
// changes kube's (pkg/features and component-base/zpages/features).

export type PolicyFeature =
  | 'ClusterTrustBundle'
  | 'ComponentFlagz'
  | 'ComponentStatusz'
  | 'CSIVolumeHealth'
  | 'DRADeviceTaintRules'
  | 'DRADeviceTaints'
  | 'DRAExtendedResource'
  | 'DRAResourceClaimGranularStatusAuthorization'
  | 'DRAResourcePoolStatus'
  | 'DRAWorkloadResourceClaims'
  | 'DynamicResourceAllocation'
  | 'GenericWorkload'
  | 'KubeletFineGrainedAuthz'
  | 'KubeletServiceAccountTokenForCredentialProviders'
  | 'MultiCIDRServiceAllocator'
  | 'PodCertificateRequest'
  | 'SELinuxChangePolicy'
  | 'StorageVersionAPI'
  | 'APIServerIdentity'
  | 'StorageVersionMigrator'
  | 'VolumeAttributesClass'
  | 'WorkloadWithJob';

export type PolicyFeatures = Readonly<Record<PolicyFeature, boolean>>;

/** kube-apiserver v1.36.0's defaults (alpha and off-by-default beta gates are off). */
export const V1_36_FEATURES: PolicyFeatures = {
  APIServerIdentity: true,
  ClusterTrustBundle: false,
  ComponentFlagz: true,
  ComponentStatusz: true,
  CSIVolumeHealth: false,
  DRADeviceTaintRules: false,
  DRADeviceTaints: true,
  DRAExtendedResource: true,
  DRAResourceClaimGranularStatusAuthorization: true,
  DRAResourcePoolStatus: false,
  DRAWorkloadResourceClaims: false,
  DynamicResourceAllocation: true,
  GenericWorkload: false,
  KubeletFineGrainedAuthz: true,
  KubeletServiceAccountTokenForCredentialProviders: true,
  MultiCIDRServiceAllocator: true,
  PodCertificateRequest: false,
  SELinuxChangePolicy: true,
  StorageVersionAPI: false,
  StorageVersionMigrator: false,
  VolumeAttributesClass: true,
  WorkloadWithJob: false,
};

/** The v1.36 defaults with `overrides` (e.g. parsed from --feature-gates) applied. */
export function policyFeatures(overrides: Readonly<Partial<Record<string, boolean>>> = {}): PolicyFeatures {
  const out: Record<PolicyFeature, boolean> = { ...V1_36_FEATURES };
  for (const k of Object.keys(out) as PolicyFeature[]) {
    const v = overrides[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
