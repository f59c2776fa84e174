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

/** apidiscovery.k8s.io/v2 APIVersionDiscovery as JSON: a group version another server serves. */
export interface VersionDiscovery {
  readonly version: string;
  readonly resources?: readonly Readonly<Record<string, unknown>>[];
  readonly freshness?: 'Current' | 'Stale';
}

/** A group version of the merged documents: served here, or by another server (the aggregator's). */
export type MergedVersion = DiscoveryGroupVersion | { readonly version: string; readonly remote: VersionDiscovery | undefined };

export interface MergedGroup {
  readonly name: string;
  /** Most preferred first. */
  readonly versions: readonly MergedVersion[];
}

/**
 * Discovery of the whole server chain (the aggregator's): the named groups served here merged
 * with those of APIServices, in APIService priority order.
 */
export interface DiscoveryMerge {
  /** /apis and /apis/<group> (APIGroupList, APIGroup): every APIService's group version. */
  legacy(local: readonly DiscoveryGroup[]): readonly MergedGroup[];
  /** /apis as APIGroupDiscoveryList: local group versions and what the backends serve. */
  aggregated(local: readonly DiscoveryGroup[]): readonly MergedGroup[];
}
