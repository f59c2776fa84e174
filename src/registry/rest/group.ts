// An API group as a resource author describes it: its versions, most preferred first, and the
// resources each serves. The storage version of a resource (and the hub its strategy sees) is the
// first version that serves it; the other versions convert through the Scheme.
// Counterpart of k8s.io/apiserver/pkg/server (APIGroupInfo) and k8s.io/apiserver/pkg/registry/rest
// (RESTCreateStrategy and friends).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ConversionFunc } from '../../apimachinery/runtime/scheme.ts';
import type { APILifecycle, ResourceDefinition, StoreLookup, TableColumn } from './strategy.ts';

export type { StoreLookup, SubresourceREST } from './strategy.ts';

export interface APIVersionDefinition {
  readonly version: string;
  readonly resources: readonly ResourceDefinition<KubeObject>[];
  /** Resources with no storage of their own (tokenreviews, subjectaccessreviews, bindings, componentstatuses). */
  readonly virtualResources?: readonly VirtualResource[];
}

/** A resource served by its own REST object instead of a generic Store. */
export interface VirtualResource {
  readonly resource: string;
  readonly kind: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Columns of `kubectl get` (componentstatuses); default Name and Created At. */
  readonly table?: readonly TableColumn<KubeObject>[];
  /** Set when the kind is deprecated (componentstatuses). */
  readonly lifecycle?: APILifecycle;
  /** Implements some capabilities of registry/rest/capabilities.ts; gets the other stores. */
  storage(lookup: StoreLookup): object;
}

/** Conversion of one kind between a served version and the storage (hub) version. */
export interface KindConversion {
  readonly version: string;
  readonly kind: string;
  readonly toHub: ConversionFunc;
  readonly fromHub: ConversionFunc;
}

export interface APIGroupDefinition {
  /** '' for the core group. */
  readonly group: string;
  /** Most preferred first: the first is the preferred version in discovery. */
  readonly versions: readonly APIVersionDefinition[];
  /** Needed wherever a kind's shape differs between versions. */
  readonly conversions?: readonly KindConversion[];
}
