// What discovery documents are built from: the served group versions and their resources.
// Counterpart of k8s.io/apiserver/pkg/endpoints/discovery (the inputs of its handlers).
export interface DiscoveryResource {
  readonly name: string;             // "pods" or "pods/status"
  readonly singularName: string;     // "" for subresources
  readonly namespaced: boolean;
  readonly group?: string;           // set when the kind is of another group (autoscaling/v1 Scale)
  readonly version?: string;
  readonly kind: string;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  readonly storageVersionHash?: string;
}

export interface DiscoveryGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly DiscoveryResource[];
}

export interface DiscoveryGroup {
  readonly name: string;
  /** Most preferred first. */
  readonly versions: readonly DiscoveryGroupVersion[];
}
