// An API group as a resource author describes it: its versions, most preferred first, and the
// resources each serves. The storage version of a resource (and the hub its strategy sees) is the
// first version that serves it; the other versions convert through the Scheme.
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { ConversionFunc } from '../../apimachinery/runtime/scheme.ts';
import type { ResourceDefinition } from './strategy.ts';

export interface APIVersionDefinition {
  readonly version: string;
  readonly resources: readonly ResourceDefinition<KubeObject>[];
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
