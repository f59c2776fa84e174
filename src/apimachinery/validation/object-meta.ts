// ObjectMeta validation of k8s.io/apimachinery/pkg/api/validation (objectmeta.go, generic.go)
// and the label helpers of k8s.io/apimachinery/pkg/apis/meta/v1/validation.
import {
  fieldPath, forbidden, invalid, required, tooLong, type FieldError, type FieldPath,
} from '../errors/field-errors.ts';
import type { ObjectMeta, OwnerReference } from '../meta/types.ts';
import { parseGroupVersion } from '../schema/group-version.ts';
import type { DeepReadonly } from './readonly.ts';
import { byteLength, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './validation.ts';

export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;

/** Validates a name, or a generateName prefix when `prefix` is true (ValidateNameFunc). */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

// A prefix may end in '-': replace the end with a letter before the check, as kube does.
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const validateNamespaceName = nameIsDNSLabel;
export const validateServiceAccountName = nameIsDNSSubdomain;

/** What Go decodes to a nil or empty slice: absent, null and []. Semantic.DeepEqual equates them. */
const isNilOrEmptyList = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

/**
 * Kube's apiequality.Semantic.DeepEqual for JSON values: an absent field equals null (both decode
 * to Go's zero value), and a nil slice equals an empty one ([] and null after a protobuf round
 * trip, which keeps no empty lists). Empty objects are not equated with absent ones: a nil
 * pointer to a struct differs from an empty struct.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNilOrEmptyList(a) && isNilOrEmptyList(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  const set = (o: object): string[] => Object.keys(o).filter((k) => !isNilOrEmptyList((o as Record<string, unknown>)[k]));
  const ak = set(a);
  const bk = set(b);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function validateImmutableField(newVal: unknown, oldVal: unknown, path: FieldPath): FieldError[] {
  return deepEqual(newVal, oldVal) ? [] : [invalid(path, newVal, FIELD_IMMUTABLE_ERROR_MSG)];
}

export function validateNonnegativeField(value: number, path: FieldPath): FieldError[] {
  return value < 0 ? [invalid(path, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

export function validateLabelName(name: string, path: FieldPath): FieldError[] {
  return isQualifiedName(name).map((m) => invalid(path, name, m));
}

export function validateLabels(labels: DeepReadonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const m of isValidLabelValue(v)) errs.push(invalid(path, v, m));
  }
  return errs;
}

export function validateAnnotations(annotations: DeepReadonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, m));
    total += byteLength(k) + byteLength(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

function validateOwnerReference(ref: DeepReadonly<OwnerReference>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = ref.apiVersion ?? '';
  const gv = parseGroupVersion(apiVersion);
  if (apiVersion.length === 0) errs.push(required(path.child('apiVersion'), 'must not be empty'));
  else if (gv === undefined || gv.version === '') errs.push(invalid(path.child('apiVersion'), apiVersion, 'must be <group>/<version> or <version>'));
  if ((ref.kind ?? '') === '') errs.push(required(path.child('kind'), 'must not be empty'));
  if ((ref.name ?? '') === '') errs.push(required(path.child('name'), 'must not be empty'));
  if ((ref.uid ?? '') === '') errs.push(required(path.child('uid'), 'must not be empty'));
  if (gv !== undefined && gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
    errs.push(invalid(path, ref, '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

function validateOwnerReferences(refs: DeepReadonly<OwnerReference[]> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  (refs ?? []).forEach((ref, i) => {
    errs.push(...validateOwnerReference(ref, path.index(i)));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController !== '') {
        errs.push(invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  });
  return errs;
}

export function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  return isQualifiedName(name).map((m) => invalid(path, name, m));
}

function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let orphan = false;
  let foreground = false;
  for (const f of finalizers ?? []) {
    errs.push(...validateFinalizerName(f, path));
    if (f === 'orphan') orphan = true;
    if (f === 'foregroundDeletion') foreground = true;
  }
  if (orphan && foreground) errs.push(invalid(path, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'));
  return errs;
}

export interface ObjectMetaOptions {
  /** The resource is namespaced: metadata.namespace is required (else forbidden). */
  readonly namespaced: boolean;
  /** Validates metadata.name and generateName; defaults to nameIsDNSSubdomain. */
  readonly nameFn?: ValidateNameFunc;
}

function validateCommon(meta: DeepReadonly<ObjectMeta>, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ns = meta.namespace ?? '';
  if (namespaced) {
    if (ns.length === 0) errs.push(required(path.child('namespace')));
    else for (const m of validateNamespaceName(ns, false)) errs.push(invalid(path.child('namespace'), ns, m));
  } else if (ns.length !== 0) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(meta.generation ?? 0, path.child('generation')));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  return errs;
}

/** ValidateObjectMeta: the checks every create runs on metadata. A boolean means `{ namespaced }`. */
export function validateObjectMeta(meta: DeepReadonly<ObjectMeta>, options: ObjectMetaOptions | boolean, path: FieldPath = fieldPath('metadata')): FieldError[] {
  const opts: ObjectMetaOptions = typeof options === 'boolean' ? { namespaced: options } : options;
  const nameFn = opts.nameFn ?? nameIsDNSSubdomain;
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (generateName.length !== 0) {
    for (const m of nameFn(generateName, true)) errs.push(invalid(path.child('generateName'), generateName, m));
  }
  const name = meta.name ?? '';
  if (name.length === 0) errs.push(required(path.child('name'), 'name or generateName is required'));
  else for (const m of nameFn(name, false)) errs.push(invalid(path.child('name'), name, m));
  return [...errs, ...validateCommon(meta, opts.namespaced, path)];
}

/** ValidateObjectMetaUpdate: identity fields are immutable; labels and friends stay valid. */
export function validateObjectMetaUpdate(meta: DeepReadonly<ObjectMeta>, old: DeepReadonly<ObjectMeta>, path: FieldPath = fieldPath('metadata')): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp !== undefined) {
    const oldSet = new Set(old.finalizers ?? []);
    const extra = [...new Set((meta.finalizers ?? []).filter((f) => !oldSet.has(f)))].sort();
    if (extra.length > 0) {
      errs.push(forbidden(path.child('finalizers'),
        `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`));
    }
  }
  const rv = meta.resourceVersion ?? '';
  if (rv.length === 0) errs.push(invalid(path.child('resourceVersion'), rv, 'must be specified for an update'));
  const gen = meta.generation ?? 0;
  errs.push(...validateNonnegativeField(gen, path.child('generation')));
  if (gen < (old.generation ?? 0)) errs.push(invalid(path.child('generation'), gen, 'must not be decremented'));
  errs.push(...validateImmutableField(meta.name ?? '', old.name ?? '', path.child('name')));
  errs.push(...validateImmutableField(meta.namespace ?? '', old.namespace ?? '', path.child('namespace')));
  errs.push(...validateImmutableField(meta.uid ?? '', old.uid ?? '', path.child('uid')));
  errs.push(...validateImmutableField(meta.creationTimestamp ?? null, old.creationTimestamp ?? null, path.child('creationTimestamp')));
  errs.push(...validateImmutableField(meta.deletionTimestamp ?? null, old.deletionTimestamp ?? null, path.child('deletionTimestamp')));
  errs.push(...validateImmutableField(meta.deletionGracePeriodSeconds ?? null, old.deletionGracePeriodSeconds ?? null, path.child('deletionGracePeriodSeconds')));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  return errs;
}

/** path.ValidatePathSegmentName: the name check the generic Store applies to every resource. */
export const validatePathSegmentName: ValidateNameFunc = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
};

/**
 * ValidateTemplateObjectMeta (embedded metadata of claim templates): valid annotations and labels,
 * and no other field set. kube names a set field by its Go name with the first letter lowered
 * (so uid reads "uID").
 */
export function validateTemplateObjectMeta(meta: DeepReadonly<Record<string, unknown>> | undefined, path: FieldPath): FieldError[] {
  const m = meta ?? {};
  const errs = [
    ...validateAnnotations(m['annotations'] as DeepReadonly<Record<string, string>> | undefined, path.child('annotations')),
    ...validateLabels(m['labels'] as DeepReadonly<Record<string, string>> | undefined, path.child('labels')),
  ];
  for (const [k, v] of Object.entries(m)) {
    if (k === 'annotations' || k === 'labels' || v === undefined || v === null || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    errs.push(forbidden(path.child(k === 'uid' ? 'uID' : k), 'cannot be set'));
  }
  return errs;
}

const METADATA_CONTENT = ['metadata.labels', 'metadata.annotations', 'metadata.ownerReferences', 'metadata.finalizers'];

/**
 * The metadata content errors (labels, annotations, owner references, finalizers) a kind's own
 * update validator reports again: kube's ValidateXUpdate functions call ValidateObjectMetaUpdate
 * (`update`) and some also the create checks of the new object (`create`) besides the checks of
 * the generic update path, so the same bad label appears once per call.
 */
export function repeatedMetadataErrors(meta: DeepReadonly<ObjectMeta>, old: DeepReadonly<ObjectMeta>, calls: { update?: boolean; create?: ObjectMetaOptions }): FieldError[] {
  const errs = [
    ...(calls.update === true ? validateObjectMetaUpdate(meta, old) : []),
    ...(calls.create === undefined ? [] : validateObjectMeta(meta, calls.create)),
  ];
  return errs.filter((e) => METADATA_CONTENT.some((p) => e.field === p || e.field.startsWith(`${p}[`) || e.field.startsWith(`${p}.`)));
}
