// Pieces the apps workloads share: the status/spec split of their strategies (status reset
// on create, generation bumped by spec changes, status-only status updates), their wide
// printer columns and their scale subresource.
// Counterpart of what the strategies of pkg/registry/apps share.
import type { FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { LabelSelector } from '../../apimachinery/labels/label-selector.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { deepEqual, repeatedMetadataErrors } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly, ScaleDefinition, Strategy, TableColumn } from '../../registry/rest/strategy.ts';
import { goFields, setOptional, withoutMetadata, type SpecStatusOptions, type StatusStrategyOptions } from '../../registry/rest/kit.ts';
import { formatLabelSelector } from '../../apimachinery/labels/label-selector.ts';
import { layoutContainerCells } from '../core/printers/format.ts';
import type { PodTemplateSpec } from '../core/v1/types.ts';
import { dropDisabledTemplateFields } from '../core/pod/disabled-fields.ts';
import { selectorString } from './validation/workload.ts';

/** An object with a spec and a status, the shape every apps workload has. */
export interface Workload extends KubeObject {
  spec: object;
  status?: object;
}

/** What a workload adds to the kit's main strategy (kube's <kind>Strategy). */
export interface WorkloadOptions<T extends Workload> {
  validate(obj: DeepReadonly<T>): FieldError[];
  /** Problems of an update; metadata problems are dropped (the Store checks metadata itself). */
  validateUpdate(obj: DeepReadonly<T>, old: DeepReadonly<T>): FieldError[];
  /** Extra server-owned fields set on create (DaemonSet's template generation), disabled fields dropped. */
  prepareForCreate?(obj: T): void;
  /** Disabled fields dropped on update, before the generation is compared (dropDisabledFields). */
  prepareForUpdate?(obj: T, old: DeepReadonly<T>): void;
  /** Decides the generation bump itself (DaemonSet's template generation); default: any spec change. */
  bumpGeneration?(obj: T, old: DeepReadonly<T>): void;
  /** Deployments also bump the generation when annotations change (they are copied to ReplicaSets). */
  readonly annotationsBumpGeneration?: boolean;
  /** How Go writes the status: counters without omitempty (written at 0) and omitempty ones (left out at 0). */
  readonly goStatus?: GoStatusFields;
  /** Warnings of a create (WarningsOnCreate). */
  warningsOnCreate?(obj: DeepReadonly<T>): string[];
  /** Warnings of an update of the main resource (WarningsOnUpdate). */
  warningsOnUpdate?(obj: DeepReadonly<T>, old: DeepReadonly<T>): string[];
  /** Update repeats the metadata update checks (ReplicationControllers). */
  readonly repeatMetadataOnUpdate?: boolean;
  /** What a delete without a propagation policy does to the pods (ReplicationControllers). */
  defaultGarbageCollectionPolicy?: Strategy<T>['defaultGarbageCollectionPolicy'];
}

/** What a workload adds to the kit's status strategy (kube's <kind>StatusStrategy). */
export interface WorkloadStatusOptions<T extends Workload> {
  validate(obj: DeepReadonly<T>, old: DeepReadonly<T>): FieldError[];
  /** Deployments keep their labels on status updates. */
  readonly keepsLabels?: boolean;
  /** Server-owned fields the status subresource keeps as stored (DaemonSet's template generation). */
  prepareForUpdate?(obj: T, old: DeepReadonly<T>): void;
  /** Status update repeats the metadata update checks (ReplicationControllers). */
  readonly repeatMetadataOnUpdate?: boolean;
}

export interface GoStatusFields {
  readonly always: Readonly<Record<string, unknown>>;
  readonly omitEmpty: readonly string[];
}

const repeatedUpdateErrors = <T extends Workload>(repeat: boolean | undefined, obj: DeepReadonly<T>, old: DeepReadonly<T>): FieldError[] =>
  (repeat === true ? repeatedMetadataErrors(obj.metadata, old.metadata, { update: true }) : []);
/** The pod template every workload's spec holds (a ReplicationController's may be absent). */
const templateOf = (obj: DeepReadonly<Workload>): PodTemplateSpec | undefined => (obj.spec as { template?: PodTemplateSpec }).template;


/** The kit options of a workload's main strategy: status {} on create, generation on spec change, Go's status fields. */
export function workloadOptions<T extends Workload>(o: WorkloadOptions<T>): SpecStatusOptions<T> {
  return {
    hasStatus: true,
    prepareForCreate(_ctx, obj) {
      obj.status = {};
      obj.metadata.generation = 1;
      dropDisabledTemplateFields(templateOf(obj), undefined);
      o.prepareForCreate?.(obj);
    },
    validate: (obj) => o.validate(obj),
    revalidateOnUpdate: false,
    prepareForUpdate(_ctx, obj, old) {
      obj.metadata.generation = old.metadata.generation ?? 1;
      dropDisabledTemplateFields(templateOf(obj), templateOf(old));
      o.prepareForUpdate?.(obj, old);
      if (o.bumpGeneration !== undefined) {
        o.bumpGeneration(obj, old);
        return;
      }
      const annotationsChanged = o.annotationsBumpGeneration === true &&
        !deepEqual(obj.metadata.annotations ?? {}, old.metadata.annotations ?? {});
      if (annotationsChanged || !deepEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validateUpdate: (obj, old) => [...withoutMetadata(o.validateUpdate(obj, old)), ...repeatedUpdateErrors(o.repeatMetadataOnUpdate, obj, old)],
    // The status is a struct: always written, with its counters as Go writes them.
    canonicalize(obj) {
      obj.status ??= {};
      if (o.goStatus !== undefined) goFields(obj.status, o.goStatus.always, o.goStatus.omitEmpty);
    },
    ...(o.warningsOnCreate !== undefined ? { warningsOnCreate: o.warningsOnCreate } : {}),
    ...(o.warningsOnUpdate !== undefined ? { warningsOnUpdate: o.warningsOnUpdate } : {}),
    ...(o.defaultGarbageCollectionPolicy !== undefined ? { defaultGarbageCollectionPolicy: o.defaultGarbageCollectionPolicy } : {}),
  };
}

/** The kit options of a workload's status strategy: no warnings, generation kept, labels kept when asked. */
export function workloadStatusOptions<T extends Workload>(o: WorkloadStatusOptions<T>): StatusStrategyOptions<T> {
  return {
    resetFields: o.keepsLabels === true ? [['spec'], ['metadata', 'labels']] : [['spec']],
    prepareForUpdate(_ctx, obj, old) {
      obj.metadata.generation = old.metadata.generation ?? 1;
      if (o.keepsLabels === true) {
        setOptional(obj.metadata, 'labels', old.metadata.labels === undefined ? undefined : { ...old.metadata.labels });
      }
      o.prepareForUpdate?.(obj, old);
    },
    validate: (obj, old) => [...withoutMetadata(o.validate(obj, old)), ...repeatedUpdateErrors(o.repeatMetadataOnUpdate, obj, old)],
    warningsOnUpdate: null,
  };
}

/** Where a workload keeps its replicas: spec.replicas (default 1), status.replicas, spec.selector. */
export function replicasScale<T extends Workload & { spec: { replicas?: number; selector?: LabelSelector | null }; status?: { replicas?: number } }>(): ScaleDefinition<T> {
  return {
    specReplicas: (obj) => obj.spec.replicas ?? 1,
    setSpecReplicas: (obj, replicas) => { obj.spec.replicas = replicas; },
    statusReplicas: (obj) => obj.status?.replicas ?? 0,
    selector: (obj) => selectorString(obj.spec.selector),
  };
}

interface Templated extends KubeObject { spec: { template?: PodTemplateSpec; selector?: LabelSelector | null } }

/** The wide columns Containers and Images of a pod template. */
export function containerColumns<T extends Templated>(): TableColumn<T>[] {
  const cells = (obj: DeepReadonly<T>): { names: string; images: string } => layoutContainerCells(obj.spec.template?.spec?.containers ?? []);
  return [
    { name: 'Containers', type: 'string', priority: 1, cell: (obj) => cells(obj).names },
    { name: 'Images', type: 'string', priority: 1, cell: (obj) => cells(obj).images },
  ];
}

/** The wide Selector column: metav1.FormatLabelSelector of spec.selector. */
export function selectorColumn<T extends Templated>(): TableColumn<T> {
  return { name: 'Selector', type: 'string', priority: 1, cell: (obj) => formatLabelSelector(obj.spec.selector as LabelSelector | null | undefined) };
}
