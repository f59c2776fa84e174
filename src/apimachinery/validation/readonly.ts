// The read-only view validators take (same shape as registry/rest's DeepReadonly, which
// apimachinery may not import: imports point downwards only).
// No Go counterpart: a TypeScript read-only type.
export type DeepReadonly<T> =
  T extends (infer E)[] ? readonly DeepReadonly<E>[] :
  T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;
