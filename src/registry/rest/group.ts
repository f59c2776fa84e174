// An API group as a resource author describes it: its versions, most preferred first, and the
// resources each serves. The storage version of a resource (and the hub its strategy sees) is the
// first version that serves it; the other versions convert through the Scheme.
// Counterpart of k8s.io/apiserver/pkg/server (APIGroupInfo) and k8s.io/apiserver/pkg/registry/rest
// (RESTCreateStrategy and friends).
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ConversionFunc } from '../../apimachinery/runtime/scheme.ts';
import type { Store } from '../generic/store.ts';
import type { APILifecycle, ResourceDefinition, TableColumn } from './strategy.ts';

export interface APIVersionDefinition {
  readonly version: string;
  readonly resources: readonly ResourceDefinition<KubeObject>[];
  /** Resources with no storage of their own (tokenreviews, subjectaccessreviews, bindings, componentstatuses). */
  readonly virtualResources?: readonly VirtualResource[];
}

/** Finds the REST storage of another resource at request time ("pods", "deployments.apps"). */
export type StoreLookup = (groupResource: string) => Store<KubeObject> | undefined;

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

/** A subresource served by its own REST object (pods/binding, pods/eviction, serviceaccounts/token). */
export interface SubresourceREST {
  readonly name: string;
  /** The kind its requests and responses carry, and that kind's group version when not the parent's. */
  readonly kind: string;
  readonly kindGroupVersion?: { readonly group: string; readonly version: string };
  readonly storage: object;
  /** Verbs the storage's capabilities imply but kube does not serve (namespaces/finalize: patch). */
  readonly omitVerbs?: readonly string[];
  /** The versioned defaults of `kind`, applied as its bodies are decoded (so managedFields see them). */
  readonly defaults?: (obj: KubeObject) => void;
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
