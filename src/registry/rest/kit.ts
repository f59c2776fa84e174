// The resource kit: what a resource definition (apis/<group>/<resource>) is built from, in one
// place for every group. Table columns (Name, Age, any other), the spec/status strategy kube
// writes for most resources and its status subresource, and the small steps strategies share
// (generation on spec change, metadata reset for status, Go zero values, copies of read-only
// views). A resource is then `{ ...names, strategy: specStatusStrategy({...}), table: [...] }
// satisfies ResourceDefinition<T>` (see STYLE.md): every strategy is built by specStatusStrategy,
// statusStrategy and subresourceStrategy, whose options carry what a resource adds; none is written by hand.
// Counterpart of what the strategies of pkg/registry share, and of the Name and Age columns of pkg/printers.
import type { FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { deepEqual } from '../../apimachinery/validation/object-meta.ts';
import type { ColumnType, DeepReadonly, Strategy, TableColumn } from './strategy.ts';

export { ageColumn, humanDuration, nameColumn, translateTimestampSince } from './printers.ts';

/** A writable deep copy of a read-only view (prepare* may then store it in the new object). */
export function copyOf<T>(v: DeepReadonly<T>): T {
  return structuredClone(v) as T;
}

/** Sets or removes an optional property, keeping exactOptionalPropertyTypes happy. */
export function setOptional<O extends object, K extends keyof O>(obj: O, key: K, value: O[K] | undefined): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}

/** The spec changed (JSON comparison): bump metadata.generation as kube's strategies do. */
export function bumpGenerationIfChanged(meta: KubeObject['metadata'], next: unknown, prev: unknown): void {
  // Semantic equality: the same spec converted from another version may list its keys in another order.
  if (!deepEqual(next, prev)) meta.generation = (meta.generation ?? 0) + 1;
}

/**
 * metav1.ResetObjectMetaForStatus: a status update keeps the stored deletionTimestamp,
 * generation, selfLink, labels, annotations, finalizers and ownerReferences.
 */
export function resetObjectMetaForStatus(meta: KubeObject['metadata'], old: DeepReadonly<KubeObject['metadata']>): void {
  for (const key of ['deletionTimestamp', 'generation', 'selfLink', 'labels', 'annotations', 'finalizers', 'ownerReferences'] as const) {
    const v = old[key];
    if (v === undefined) delete meta[key];
    else (meta as Record<string, unknown>)[key] = structuredClone(v);
  }
}

/**
 * Go's JSON of a struct: fields without omitempty (`always`) are written even at their zero value
 * (absent or null becomes that value); omitempty fields (`omitEmpty`) are left out at their zero
 * value (0, "", false, null, an empty list).
 */
export function goFields(target: object, always: object, omitEmpty: readonly string[] = []): void {
  const obj = target as Record<string, unknown>;
  for (const [k, zero] of Object.entries(always)) if (obj[k] === undefined || obj[k] === null) obj[k] = structuredClone(zero);
  for (const k of omitEmpty) {
    const v = obj[k];
    if (v === 0 || v === '' || v === false || v === null || (Array.isArray(v) && v.length === 0)) delete obj[k];
  }
}

type RO<T> = DeepReadonly<T>;

/** A printer column; priority 1 for `-o wide` only. */
export function column<T>(name: string, type: ColumnType, cell: TableColumn<T>['cell'], extra: { priority?: number; description?: string; format?: string } = {}): TableColumn<T> {
  return { name, type, cell, ...extra };
}

/** Drops metadata problems: on update the Store validates metadata itself. */
export const withoutMetadata = (errs: FieldError[]): FieldError[] => errs.filter((e) => !e.field.startsWith('metadata.') && e.field !== 'metadata');

type WithStatus = KubeObject & { spec?: unknown; status?: unknown };

export interface SpecStatusOptions<T extends WithStatus> {
  /** Full validation on create (metadata included). */
  validate(obj: RO<T>, ctx: RequestContext): FieldError[];
  /** Extra checks on update (immutable fields); validate() minus metadata runs as well unless revalidateOnUpdate is false. */
  validateUpdate?(obj: RO<T>, old: RO<T>, ctx: RequestContext): FieldError[];
  /** validate() (minus metadata) runs on update before validateUpdate; default true. False: validateUpdate is the whole check. */
  readonly revalidateOnUpdate?: boolean;
  /** Validation of a status update; defaults to none. */
  validateStatusUpdate?(obj: RO<T>, old: RO<T>): FieldError[];
  /** The object has a status the main resource may not set (reset on create, kept on update). */
  readonly hasStatus?: boolean;
  /** metadata.generation starts at 1 and grows when spec changes. */
  readonly generation?: boolean;
  /** A PUT of a missing object creates it; default false. */
  readonly allowCreateOnUpdate?: boolean;
  /** An update without a resourceVersion (or with "0") applies to the stored object; default true. */
  readonly allowUnconditionalUpdate?: boolean;
  /** The field holding the desired state, when it is not `spec` (webhook configurations: webhooks). */
  readonly specFields?: readonly string[];
  /**
   * What a change of the desired state is judged on, when no fixed field list names it (custom
   * resources: every field but metadata and a status subresource's status); replaces specFields.
   */
  specOf?(obj: RO<T>): unknown;
  /** GetResetFields, when the strategy resets fields on update (Strategy.resetFields). */
  readonly resetFields?: readonly (readonly string[])[];
  /** Further create preparation (server-owned fields, disabled fields dropped). */
  prepareForCreate?(ctx: RequestContext, obj: T): void;
  /**
   * Update preparation before the generation is settled: fields dropped here (disabled by a gate,
   * omitted by the schema) do not count as a spec change.
   */
  normalizeForUpdate?(ctx: RequestContext, obj: T, old: RO<T>): void;
  /** Further update preparation, after status and generation are settled. */
  prepareForUpdate?(ctx: RequestContext, obj: T, old: RO<T>): void;
  warningsOnCreate?(obj: RO<T>, ctx: RequestContext): string[];
  warningsOnUpdate?(obj: RO<T>, old: RO<T>, ctx: RequestContext): string[];
  canonicalize?(obj: T): void;
  checkGracefulDelete?: Strategy<T>['checkGracefulDelete'];
  defaultGarbageCollectionPolicy?: Strategy<T>['defaultGarbageCollectionPolicy'];
}

const pick = (o: object, keys: readonly string[]): Record<string, unknown> => {
  const r: Record<string, unknown> = {};
  for (const k of keys) r[k] = (o as Record<string, unknown>)[k];
  return r;
};

/** Sets `key` of obj to a copy of old's value, or deletes it when old has none. */
function keepFromOld(obj: object, old: object, key: string): void {
  const v = (old as Record<string, unknown>)[key];
  if (v === undefined) delete (obj as Record<string, unknown>)[key];
  else (obj as Record<string, unknown>)[key] = copyOf<unknown>(v);
}

/**
 * The strategy kube writes for most resources: status reset on create, kept on update, generation
 * on spec. Every resource's main strategy is built here; its options add what a resource needs.
 */
export function specStatusStrategy<T extends WithStatus>(o: SpecStatusOptions<T>): Strategy<T> {
  const specFields = o.specFields ?? ['spec'];
  const revalidate = o.revalidateOnUpdate !== false;
  const specOf = o.specOf ?? ((x: RO<T>) => pick(x, specFields));
  const s: Strategy<T> = {
    prepareForCreate(ctx, obj) {
      if (o.hasStatus === true) delete obj.status;
      if (o.generation === true) obj.metadata.generation = 1;
      o.prepareForCreate?.(ctx, obj);
    },
    validate: (ctx, obj) => o.validate(obj, ctx),
    allowCreateOnUpdate: o.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: o.allowUnconditionalUpdate ?? true,
    ...(o.resetFields !== undefined ? { resetFields: o.resetFields } : {}),
    prepareForUpdate(ctx, obj, old) {
      if (o.hasStatus === true) keepFromOld(obj, old, 'status');
      o.normalizeForUpdate?.(ctx, obj, old);
      if (o.generation === true) {
        const prev = old.metadata.generation ?? 1;
        obj.metadata.generation = deepEqual(specOf(obj as RO<T>), specOf(old)) ? prev : prev + 1;
      }
      o.prepareForUpdate?.(ctx, obj, old);
    },
    validateUpdate: (ctx, obj, old) => [...(revalidate ? withoutMetadata(o.validate(obj, ctx)) : []), ...(o.validateUpdate?.(obj, old, ctx) ?? [])],
  };
  const { warningsOnCreate, warningsOnUpdate, canonicalize, checkGracefulDelete, defaultGarbageCollectionPolicy } = o;
  if (warningsOnCreate !== undefined) s.warningsOnCreate = (ctx, obj) => warningsOnCreate(obj, ctx);
  if (warningsOnUpdate !== undefined) s.warningsOnUpdate = (ctx, obj, old) => warningsOnUpdate(obj, old, ctx);
  if (canonicalize !== undefined) s.canonicalize = canonicalize;
  if (checkGracefulDelete !== undefined) s.checkGracefulDelete = checkGracefulDelete;
  if (defaultGarbageCollectionPolicy !== undefined) s.defaultGarbageCollectionPolicy = defaultGarbageCollectionPolicy;
  return s;
}

/** The status subresource: spec (and every other non-status field) comes from the stored object. */
export interface StatusStrategyOptions<T extends WithStatus> {
  readonly specFields?: readonly string[];
  validate?: (obj: RO<T>, old: RO<T>, ctx: RequestContext) => FieldError[];
  /**
   * metadata is reset too (ResetObjectMetaForStatus: labels, annotations, finalizers, owner
   * references stay as stored). `inResetFields`: whether GetResetFields names metadata as well
   * (default true); some strategies reset it without saying so.
   */
  readonly resetMetadata?: { readonly inResetFields?: boolean };
  /** GetResetFields, when it is not the spec fields (and metadata) alone. */
  readonly resetFields?: readonly (readonly string[])[];
  /** Further update preparation, after the spec fields are copied from the stored object. */
  prepareForUpdate?(ctx: RequestContext, obj: T, old: RO<T>): void;
  /** The status update's own warnings; null: none (the main strategy's are inherited otherwise). */
  readonly warningsOnUpdate?: ((obj: RO<T>, old: RO<T>, ctx: RequestContext) => string[]) | null;
}

/** Every resource's status strategy: the main one with spec kept from the stored object. */
export function statusStrategy<T extends WithStatus>(main: Strategy<T>, o: StatusStrategyOptions<T> = {}): Strategy<T> {
  const specFields = o.specFields ?? ['spec'];
  const metadataReset = o.resetMetadata !== undefined && o.resetMetadata.inResetFields !== false;
  const s: Strategy<T> = {
    ...main,
    resetFields: o.resetFields ?? [...specFields.map((f) => [f]), ...(metadataReset ? [['metadata']] : [])],
    prepareForUpdate(ctx, obj, old) {
      for (const f of specFields) keepFromOld(obj, old, f);
      if (o.resetMetadata !== undefined) resetObjectMetaForStatus(obj.metadata, old.metadata);
      // Otherwise labels and annotations may change through status; generation may not.
      else if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation;
      o.prepareForUpdate?.(ctx, obj, old);
    },
    validateUpdate: (ctx, obj, old) => o.validate?.(obj, old, ctx) ?? [],
  };
  const warnings = o.warningsOnUpdate;
  if (warnings === null) delete s.warningsOnUpdate;
  else if (warnings !== undefined) s.warningsOnUpdate = (ctx, obj, old) => warnings(obj, old, ctx);
  return s;
}

/** A subresource that writes part of the object (pods/resize, pods/ephemeralcontainers). */
export interface SubresourceStrategyOptions<T extends KubeObject> {
  /** Takes from the request what the subresource may change; the rest stays as stored. */
  prepareForUpdate(ctx: RequestContext, obj: T, old: RO<T>): void;
  validate(obj: RO<T>, old: RO<T>, ctx: RequestContext): FieldError[];
  /** GetResetFields; default none. */
  readonly resetFields?: readonly (readonly string[])[];
}

/** The main strategy with the update replaced by the subresource's own preparation and check. */
export function subresourceStrategy<T extends KubeObject>(main: Strategy<T>, o: SubresourceStrategyOptions<T>): Strategy<T> {
  const { resetFields: _r, ...rest } = main;
  return {
    ...rest,
    ...(o.resetFields !== undefined ? { resetFields: o.resetFields } : {}),
    prepareForUpdate: (ctx, obj, old) => o.prepareForUpdate(ctx, obj, old),
    validateUpdate: (ctx, obj, old) => o.validate(obj, old, ctx),
  };
}
