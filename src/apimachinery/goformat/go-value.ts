// A Go value described by its kind, type name and parts: what a comparison that follows Go's
// (apiequality.Semantic.DeepEqual of an internal struct) needs to know about a JSON object.
// Counterpart of the reflect.Value that Go's equality and formatting helpers walk.

export interface GoField { readonly name: string; readonly value: GoValue }

/** A Go value: its kind, its type's name, its parts. */
export type GoValue =
  | { readonly kind: 'string'; readonly value: string; /** A fmt.Stringer. */ readonly stringer?: boolean }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'ptr'; readonly elem: GoValue | null }
  | {
    readonly kind: 'struct'; readonly type: string; readonly fields: readonly GoField[];
    /** The type's Equal method: comparisons use it and treat the value as a leaf. */
    readonly equal?: (x: GoValue, y: GoValue) => boolean;
  }
  | { readonly kind: 'slice'; readonly type: string; readonly elems: readonly GoValue[] | null }
  | { readonly kind: 'map'; readonly type: string; readonly entries: readonly (readonly [GoValue, GoValue])[] | null };
