// The ResourceDefinition of one custom resource in one served version: its strategy (schema
// validation, status split, generation), scale subresource, field selectors and table columns,
// all derived from the CRD (kube's customresource strategy, validator and table convertor).
// Counterpart of k8s.io/apiextensions-apiserver/pkg/registry/customresource.
import { fieldPath, type FieldError } from '../../apimachinery/errors/field-errors.ts';
import type { KubeObject } from '../../apimachinery/meta/types.ts';
import { messageByName } from '../../apimachinery/runtime/serializer/protobuf/descriptors.ts';
import { goOrderedDeep } from '../../apimachinery/runtime/serializer/protobuf/go-order.ts';
import type { RequestContext } from '../../apimachinery/request/context.ts';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.ts';
import type { ColumnType, DeepReadonly, ResourceDefinition, ScaleDefinition, Strategy, TableColumn } from '../../registry/rest/strategy.ts';
import { specStatusStrategy, statusStrategy } from '../../registry/rest/kit.ts';
import { objectMetaFieldSet } from '../../registry/rest/strategy.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, CustomResourceSubresourceScale } from '../v1/types.ts';
import { humanDuration } from '../../registry/rest/printers.ts';
import { getPath, setPath } from './jsonpath.ts';
import { validateScaleSpec, validateScaleStatus } from './scale-validation.ts';
import { CustomResourceValidator } from './validator.ts';
import { newRuleValidator } from '../schema/cel/validation.ts';

type CRD = DeepReadonly<CustomResourceDefinition>;
// A custom resource is unstructured: any field beside metadata.
type Obj = KubeObject & Record<string, unknown>;

/** Everything but metadata (and status when it is a subresource): what bumps generation. */
function content(o: DeepReadonly<KubeObject>, withoutStatus: boolean): Record<string, unknown> {
  const { metadata: _m, ...rest } = o as Obj;
  if (withoutStatus) delete rest['status'];
  return rest;
}

/** The version whose schema judges a request: the one it names, else the storage version. */
function versionFor(crd: CRD, ctx: RequestContext, storage: string): DeepReadonly<CustomResourceDefinitionVersion> | undefined {
  const wanted = ctx.info.apiGroup === crd.spec.group && ctx.info.apiVersion !== '' ? ctx.info.apiVersion : storage;
  return crd.spec.versions.find((x) => x.name === wanted) ?? crd.spec.versions.find((x) => x.name === storage);
}

function strategies(crd: CRD, storage: string, hasStatus: boolean, scale: DeepReadonly<CustomResourceSubresourceScale> | undefined):
  { main: Strategy<KubeObject>; status: Strategy<KubeObject> } {
  const namespaced = crd.spec.scope === 'Namespaced';
  // One validator per version, built on first use: its rules compile once, not per request.
  const validators = new Map<string, CustomResourceValidator | undefined>();
  const validatorFor = (ctx: RequestContext): CustomResourceValidator | undefined => {
    const v = versionFor(crd, ctx, storage);
    if (v === undefined) return undefined;
    if (!validators.has(v.name)) {
      const schema = v.schema?.openAPIV3Schema;
      validators.set(v.name, schema === undefined ? undefined : new CustomResourceValidator(schema, newRuleValidator(schema)));
    }
    return validators.get(v.name);
  };
  const meta = (o: DeepReadonly<KubeObject>): FieldError[] =>
    validateObjectMeta(o.metadata, { namespaced, nameFn: nameIsDNSSubdomain }, fieldPath('metadata'));
  const body = (o: DeepReadonly<KubeObject>): Readonly<Record<string, unknown>> => o as Readonly<Obj>;
  // As kube's validator, after the schema: the scale subresource's replicas and selector.
  const scaleErrs = (o: DeepReadonly<KubeObject>): FieldError[] => [...validateScaleSpec(o, scale), ...validateScaleStatus(o, scale)];
  const main = specStatusStrategy<KubeObject>({
    validate: (o, ctx) => {
      const m = meta(o);
      return [...m, ...validatorFor(ctx)?.validate(ctx, body(o), m) ?? [], ...scaleErrs(o)];
    },
    hasStatus,
    generation: true,
    specOf: (o) => content(o, hasStatus),
    allowUnconditionalUpdate: false,
    revalidateOnUpdate: false,
    validateUpdate: (o, old, ctx) => {
      // kube's custom resource validator checks the metadata update once more than the Store does
      // (its causes appear twice then), and its blocking errors keep the rules from running.
      const m = validateObjectMetaUpdate(o.metadata, old.metadata);
      return [...m, ...validatorFor(ctx)?.validateUpdate(ctx, body(o), body(old), [...m, ...meta(o)]) ?? [], ...scaleErrs(o)];
    },
  });
  // As kube's status strategy, the whole object but status is the stored one (metadata but for
  // the managedFields recording this write). Only .status is checked against its own sub-schema
  // (so an invalid stored spec, or root-level required fields, cannot fail a status write), then
  // the scale subresource's status replicas and selector.
  const status = statusStrategy(main, {
    specFields: [],
    resetMetadata: {},
    resetFields: [['metadata'], ['spec']],
    prepareForUpdate(_ctx, o, old) {
      const obj = o as Obj;
      const status = obj['status'];
      for (const k of Object.keys(obj)) if (k !== 'metadata') delete obj[k];
      const { metadata: _m, ...stored } = structuredClone(old as Obj);
      Object.assign(obj, stored);
      if (status !== undefined) obj['status'] = status; else delete obj['status'];
    },
    validate(o, old, ctx) {
      const m = validateObjectMetaUpdate(o.metadata, old.metadata);
      return [...m, ...validatorFor(ctx)?.validateStatusUpdate(ctx, body(o), body(old), m) ?? [], ...validateScaleStatus(o, scale)];
    },
  });
  return { main, status };
}

/** Date columns are rendered server-side as an age ("5m"), as kube's CR table convertor does. */
function ageCell(v: unknown, now: number): string | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : humanDuration(now - t);
}

function columnType(t: string): ColumnType {
  return t === 'integer' || t === 'number' || t === 'boolean' || t === 'date' ? t : 'string';
}

function cellOf(v: unknown): string | number | boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

function tableFor(version: DeepReadonly<CustomResourceDefinitionVersion>): TableColumn<KubeObject>[] {
  const columns = version.additionalPrinterColumns ?? [];
  const name: TableColumn<KubeObject> = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata.name ?? '' };
  if (columns.length === 0) {
    return [name, { name: 'Age', type: 'date',      cell: (o, now) => ageCell(o.metadata.creationTimestamp, now) }];
  }
  return [name, ...columns.map((c): TableColumn<KubeObject> => ({
    name: c.name, type: columnType(c.type), ...(c.format !== undefined ? { format: c.format } : {}),
    description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    ...(c.priority !== undefined ? { priority: c.priority } : {}),
    cell: c.type === 'date' ? (o, now) => ageCell(getPath(o, c.jsonPath), now) : (o) => cellOf(getPath(o, c.jsonPath)),
  }))];
}

function scaleFor(version: DeepReadonly<CustomResourceDefinitionVersion>): ScaleDefinition<KubeObject> | undefined {
  const s = version.subresources?.scale;
  if (s === undefined) return undefined;
  const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
  return {
    specReplicasPath: s.specReplicasPath,
    specReplicas: (o) => num(getPath(o, s.specReplicasPath)),
    setSpecReplicas: (o, n) => setPath(o as Obj, s.specReplicasPath, n),
    statusReplicas: (o) => num(getPath(o, s.statusReplicasPath)),
    selector: (o) => {
      const v = s.labelSelectorPath === undefined ? undefined : getPath(o, s.labelSelectorPath);
      return typeof v === 'string' ? v : '';
    },
  };
}

function fieldValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v as number | boolean);
}

/** The definition of the custom resource `crd` as served in `version`; the Store uses the storage version's. */
export function customResourceDefinition(crd: CRD, version: string): ResourceDefinition<KubeObject> {
  const v = crd.spec.versions.find((x) => x.name === version);
  if (v === undefined) throw new Error(`version ${version} not in CRD ${crd.metadata.name ?? ''}`);
  const storage = crd.spec.versions.find((x) => x.storage)?.name ?? version;
  const names = crd.spec.names;
  const namespaced = crd.spec.scope === 'Namespaced';
  const hasStatus = v.subresources?.status !== undefined;
  const { main, status } = strategies(crd, storage, hasStatus, v.subresources?.scale);
  const selectable = (v.selectableFields ?? []).map((f) => f.jsonPath);
  const scale = scaleFor(v);
  return {
    group: crd.spec.group, kind: names.kind, resource: names.plural, singular: names.singular ?? names.kind.toLowerCase(),
    ...(names.shortNames !== undefined ? { shortNames: [...names.shortNames] } : {}),
    ...(names.categories !== undefined ? { categories: [...names.categories] } : {}),
    namespaced,
    strategy: main,
    ...(hasStatus ? { statusStrategy: status } : {}),
    ...(scale !== undefined ? { scale } : {}),
    selectableFields: (o) => {
      const set = objectMetaFieldSet(o.metadata, namespaced);
      for (const p of selectable) set[p.replace(/^\./, '')] = fieldValue(getPath(o, p));
      return set;
    },
    table: tableFor(v),
    metadataView: typedObjectMeta,
  };
}

const OBJECT_META = messageByName('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta');

/**
 * A custom resource's metadata as PartialObjectMetadata and Table rows show it: kube converts the
 * unstructured object's metadata into the typed ObjectMeta there, so its keys take Go's order.
 */
function typedObjectMeta(o: DeepReadonly<KubeObject>): KubeObject['metadata'] {
  const meta = structuredClone(o.metadata) as KubeObject['metadata'];
  return OBJECT_META === undefined ? meta : goOrderedDeep(meta, OBJECT_META);
}
