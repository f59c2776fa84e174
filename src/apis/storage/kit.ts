// Small building blocks shared by the storage, scheduling, node, certificates, admissionregistration,
// flowcontrol and resource groups: table columns, the spec/status strategy pattern kube repeats
// for most resources, and type erasure for heterogeneous resource lists.
// Counterpart of what the strategies of pkg/registry share (PrepareForCreate/Update, table columns).
import { deepEqual } from '../../apimachinery/validation/object-meta.ts';
import type { FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import type { ColumnType, DeepReadonly, ResourceDefinition, Strategy, TableColumn } from '../../registry/rest/strategy.ts';
import { copyOf, resetObjectMetaForStatus } from '../core/common.ts';

export { ageColumn, nameColumn } from '../core/common.ts';
export { humanDuration } from '../core/printers/age.ts';

type RO<T> = DeepReadonly<T>;

/** A printer column; priority 1 for `-o wide` only. */
export function column<T>(name: string, type: ColumnType, cell: TableColumn<T>['cell'], extra: { priority?: number; description?: string; format?: string } = {}): TableColumn<T> {
  return { name, type, cell, ...extra };
}

/** Erases the object type for a heterogeneous list (each definition is checked by `satisfies`). */
export const erase = <T extends KubeObject>(d: ResourceDefinition<T>): ResourceDefinition<KubeObject> =>
  d as unknown as ResourceDefinition<KubeObject>;

/** Drops metadata problems: on update the Store validates metadata itself. */
export const withoutMetadata = (errs: FieldError[]): FieldError[] => errs.filter((e) => !e.field.startsWith('metadata.') && e.field !== 'metadata');

type WithStatus = KubeObject & { spec?: unknown; status?: unknown };

export interface SpecStatusOptions<T extends WithStatus> {
  /** Full validation on create (metadata included). */
  validate(obj: RO<T>, ctx: RequestContext): FieldError[];
  /** Extra checks on update (immutable fields); validate() minus metadata runs as well. */
  validateUpdate?(obj: RO<T>, old: RO<T>): FieldError[];
  /** Validation of a status update; defaults to none. */
  validateStatusUpdate?(obj: RO<T>, old: RO<T>): FieldError[];
  /** The object has a status the main resource may not set (reset on create, kept on update). */
  readonly hasStatus?: boolean;
  /** metadata.generation starts at 1 and grows when spec changes. */
  readonly generation?: boolean;
  /** An update without a resourceVersion (or with "0") applies to the stored object; default true. */
  readonly allowUnconditionalUpdate?: boolean;
  /** The field holding the desired state, when it is not `spec` (webhook configurations: webhooks). */
  readonly specFields?: readonly string[];
  /** Further create preparation (server-owned fields). */
  prepareForCreate?(ctx: RequestContext, obj: T): void;
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

/** The strategy kube writes for most resources: status reset on create, kept on update, generation on spec. */
export function specStatusStrategy<T extends WithStatus>(o: SpecStatusOptions<T>): Strategy<T> {
  const specFields = o.specFields ?? ['spec'];
  return {
    prepareForCreate(ctx, obj) {
      if (o.hasStatus === true) delete obj.status;
      if (o.generation === true) obj.metadata.generation = 1;
      o.prepareForCreate?.(ctx, obj);
    },
    validate: (ctx, obj) => o.validate(obj, ctx),
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: o.allowUnconditionalUpdate ?? true,
    prepareForUpdate(_ctx, obj, old) {
      if (o.hasStatus === true) keepFromOld(obj, old, 'status');
      if (o.generation === true) {
        const prev = old.metadata.generation ?? 1;
        obj.metadata.generation = deepEqual(pick(obj, specFields), pick(old, specFields)) ? prev : prev + 1;
      }
    },
    validateUpdate: (ctx, obj, old) => [...withoutMetadata(o.validate(obj, ctx)), ...(o.validateUpdate?.(obj, old) ?? [])],
  };
}

/** The status subresource: spec (and every other non-status field) comes from the stored object. */
export interface StatusStrategyOptions<T extends WithStatus> {
  readonly specFields?: readonly string[];
  validate?: (obj: RO<T>, old: RO<T>) => FieldError[];
  /**
   * metadata is reset too (ResetObjectMetaForStatus: labels, annotations, finalizers, owner
   * references stay as stored). `inResetFields`: whether GetResetFields names metadata as well
   * (default true); some strategies reset it without saying so.
   */
  readonly resetMetadata?: { readonly inResetFields?: boolean };
}

export function statusStrategy<T extends WithStatus>(main: Strategy<T>, o: StatusStrategyOptions<T> = {}): Strategy<T> {
  const specFields = o.specFields ?? ['spec'];
  const metadataReset = o.resetMetadata !== undefined && o.resetMetadata.inResetFields !== false;
  return {
    ...main,
    resetFields: [...specFields.map((f) => [f]), ...(metadataReset ? [['metadata']] : [])],
    prepareForUpdate(_ctx, obj, old) {
      for (const f of specFields) keepFromOld(obj, old, f);
      if (o.resetMetadata !== undefined) resetObjectMetaForStatus(obj.metadata, old.metadata);
      // Otherwise labels and annotations may change through status; generation may not.
      else if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation;
    },
    validateUpdate: (_ctx, obj, old) => o.validate?.(obj, old) ?? [],
  };
}
