// ValidateCustomResourceDefinition(Update) of apiextensions-apiserver, v1 rules: names, group,
// scope, versions (one storage version, unique names, at least one served, a structural
// schema each), subresources, printer columns, and immutability of group/plural (and of
// scope/kind once established).
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation.
import {
  GoSyntax, invalid, notSupported, required, type FieldError, type FieldPath, fieldPath,
} from '../../apimachinery/errors/field-errors.ts';
import { isDNS1035Label, isDNS1123Subdomain } from '../../apimachinery/validation/validation.ts';
import { nameIsDNSSubdomain, validateImmutableField, validateObjectMeta } from '../../apimachinery/validation/object-meta.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import {
  isEstablished, type CustomResourceDefinition, type CustomResourceDefinitionNames, type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionVersion, type JSONSchemaProps,
} from '../v1/types.ts';
import { conversionUpdateOptions, CREATE_CONVERSION_OPTIONS, validateConversion, type ConversionValidationOptions } from './conversion-validation.ts';
import { validateJunctors } from './junctors.ts';
import { validateSchemaExtensions } from './schema-extensions.ts';
import { validateSelectableFields } from './selectable-fields.ts';
import { validateStructuralSchema } from './structural.ts';
import { validateValidationRules } from './validation-rules.ts';

type CRD = DeepReadonly<CustomResourceDefinition>;

const VERSIONS_VALUE = new GoSyntax('[]apiextensions.CustomResourceDefinitionVersion{...}');
const COLUMN_TYPES = ['integer', 'number', 'string', 'boolean', 'date'];

export function validateCRD(crd: CRD): FieldError[] {
  const spec = crd.spec;
  const nameFn = (name: string, prefix: boolean): string[] => {
    const errs = nameIsDNSSubdomain(name, prefix);
    if (name !== `${spec.names.plural}.${spec.group}`) errs.push('must be spec.names.plural+"."+spec.group');
    return errs;
  };
  return [
    ...validateObjectMeta(crd.metadata, { namespaced: false, nameFn }),
    ...validateSpec(spec, fieldPath('spec'), CREATE_CONVERSION_OPTIONS),
    ...validateNames(crd.status?.acceptedNames, fieldPath('status', 'acceptedNames')),
    ...validateStoredVersions(crd),
  ];
}

export function validateCRDUpdate(crd: CRD, old: CRD): FieldError[] {
  const spec = fieldPath('spec');
  const errs = [...validateSpec(crd.spec, spec, conversionUpdateOptions(old), unchangedSchemas(crd, old)), ...validateNames(crd.status?.acceptedNames, fieldPath('status', 'acceptedNames'))];
  if (isEstablished(old)) {
    errs.push(...validateImmutableField(crd.spec.scope, old.spec.scope, spec.child('scope')));
    errs.push(...validateImmutableField(crd.spec.names.kind, old.spec.names.kind, spec.child('names', 'kind')));
  }
  errs.push(...validateImmutableField(crd.spec.group, old.spec.group, spec.child('group')));
  errs.push(...validateImmutableField(crd.spec.names.plural, old.spec.names.plural, spec.child('names', 'plural')));
  errs.push(...validateStoredVersions(crd));
  return errs;
}

/** The status subresource: accepted names valid, stored versions still in spec.versions. */
export function validateCRDStatusUpdate(crd: CRD): FieldError[] {
  return [...validateNames(crd.status?.acceptedNames, fieldPath('status', 'acceptedNames')), ...validateStoredVersions(crd)];
}

/** ValidateCustomResourceDefinitionStoredVersions: at least one, the storage version among them, none dropped from spec.versions. */
function validateStoredVersions(crd: CRD): FieldError[] {
  const path = fieldPath('status', 'storedVersions');
  const stored = crd.status?.storedVersions ?? null;
  if (stored === null || stored.length === 0) return [invalid(path, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const left = new Map(stored.map((v, i) => [v, i]));
  for (const v of crd.spec.versions ?? []) {
    if (v.storage && !stored.includes(v.name)) errs.push(invalid(path, stored, `must have the storage version ${v.name}`));
    left.delete(v.name);
  }
  for (const [v, i] of left) {
    errs.push(invalid(path.index(i), v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions ` +
      `until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

/**
 * The versions whose schema this update leaves as it was: their rules' per-expression cost limits
 * are not enforced again, so that a CRD stored under older cost estimates stays updatable.
 */
function unchangedSchemas(crd: CRD, old: CRD): ReadonlySet<string> {
  const out = new Set<string>();
  for (const v of crd.spec.versions ?? []) {
    const before = (old.spec.versions ?? []).find((o) => o.name === v.name)?.schema?.openAPIV3Schema;
    const now = v.schema?.openAPIV3Schema;
    if (before !== undefined && now !== undefined && canonicalJSON(before) === canonicalJSON(now)) out.add(v.name);
  }
  return out;
}

function validateSpec(spec: DeepReadonly<CustomResourceDefinitionSpec>, path: FieldPath, conversion: ConversionValidationOptions,
  unchanged: ReadonlySet<string> = new Set()): FieldError[] {
  const errs: FieldError[] = [];
  const group = spec.group ?? '';
  if (group === '') errs.push(required(path.child('group')));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(invalid(path.child('group'), group, msgs.join(',')));
    else if (group.split('.').length < 2) errs.push(invalid(path.child('group'), group, 'should be a domain with at least one dot'));
  }
  const scope = spec.scope ?? '';
  if (scope === '') errs.push(required(path.child('scope')));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(notSupported(path.child('scope'), scope, ['Cluster', 'Namespaced']));

  const versions = spec.versions ?? [];
  const vp = path.child('versions');
  let storage = 0;
  let served = false;
  const seen = new Set<string>();
  let unique = true;
  // kube's internal CRD keeps one spec.validation when every version has the same schema, and its
  // errors name that path; only differing schemas are validated (and named) per version.
  const shared = sharedSchema(versions);
  if (shared !== undefined) errs.push(...validateSchema(shared, path.child('validation', 'openAPIV3Schema'), unchanged.has(versions[0]?.name ?? '')));
  // Selectable fields the same in every version are hoisted to spec.selectableFields too.
  const firstSelectable = versions[0]?.selectableFields ?? [];
  const sameSelectable = versions.every((v) => canonicalJSON(v.selectableFields ?? []) === canonicalJSON(firstSelectable));
  if (sameSelectable && firstSelectable.length > 0) {
    errs.push(...(shared === undefined ? [invalid(path.child('selectableFields'), '', 'may only be set when validations.schema is included')]
      : validateSelectableFields(firstSelectable, shared, path.child('selectableFields'))));
  }
  versions.forEach((v, i) => {
    if (v.storage) storage++;
    if (v.served) served = true;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const msgs = isDNS1035Label(v.name ?? '');
    if (msgs.length > 0) errs.push(invalid(vp.index(i).child('name'), v.name ?? '', msgs.join(',')));
    errs.push(...validateVersion(v, vp.index(i), shared === undefined, unchanged.has(v.name ?? ''), sameSelectable));
  });
  if (!unique) errs.push(invalid(vp, VERSIONS_VALUE, 'must contain unique version names'));
  // No versions at all is this same error, its value Go's nil slice.
  if (storage !== 1) errs.push(invalid(vp, versions.length > 0 ? VERSIONS_VALUE : null, 'must have exactly one version marked as storage version'));
  if (versions.length > 0 && !served) errs.push(invalid(vp, VERSIONS_VALUE, 'must have at least one version marked as served'));

  const names = spec.names ?? { plural: '', kind: '' };
  const np = path.child('names');
  if ((names.plural ?? '') === '') errs.push(required(np.child('plural')));
  if ((names.singular ?? '') === '') errs.push(required(np.child('singular')));
  if ((names.kind ?? '') === '') errs.push(required(np.child('kind')));
  if ((names.listKind ?? '') === '') errs.push(required(np.child('listKind')));
  errs.push(...validateNames(names, np));

  errs.push(...validateConversion(spec, path, conversion));
  if (spec.preserveUnknownFields === true) {
    errs.push(invalid(path.child('preserveUnknownFields'), true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  }
  return errs;
}

function sharedSchema(versions: readonly DeepReadonly<CustomResourceDefinitionVersion>[]): DeepReadonly<JSONSchemaProps> | undefined {
  const first = versions[0]?.schema?.openAPIV3Schema;
  if (first === undefined) return undefined;
  const text = canonicalJSON(first);
  return versions.every((v) => v.schema?.openAPIV3Schema !== undefined && canonicalJSON(v.schema.openAPIV3Schema) === text) ? first : undefined;
}

/** JSON with object keys sorted, so that schemas equal as Go's DeepEqual sees them compare equal. */
function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function validateSchema(schema: DeepReadonly<JSONSchemaProps>, path: FieldPath, unchanged = false): FieldError[] {
  const errs = [...validateStructuralSchema(schema, path), ...validateJunctors(schema, path), ...validateSchemaExtensions(schema, path)];
  // Rules compile only against a valid schema: kube builds their types from it.
  errs.push(...validateValidationRules(schema, path, { compile: errs.length === 0, suppressPerExpressionCost: unchanged }));
  return errs;
}

function validateVersion(v: DeepReadonly<CustomResourceDefinitionVersion>, path: FieldPath, ownSchema: boolean, unchanged: boolean,
  sharedSelectable: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const schema = v.schema?.openAPIV3Schema;
  const sp = path.child('schema', 'openAPIV3Schema');
  if (schema === undefined) errs.push(required(sp, 'schemas are required'));
  else {
    if (ownSchema) errs.push(...validateSchema(schema, sp, unchanged));
    if (v.subresources?.status !== undefined) {
      const extra = Object.keys(schema).filter((k) => !['type', 'properties', 'required', 'description',
        'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations'].includes(k));
      if (extra.length > 0) {
        errs.push(invalid(sp, new GoSyntax('apiextensions.JSONSchemaProps{...}'),
          'must only have "properties", "required" or "description" at the root if the status subresource is enabled'));
      }
    }
  }
  const scale = v.subresources?.scale;
  if (scale !== undefined) {
    const p = path.child('subresources', 'scale');
    if ((scale.specReplicasPath ?? '') === '') errs.push(required(p.child('specReplicasPath')));
    else if (!scale.specReplicasPath.startsWith('.spec.')) {
      errs.push(invalid(p.child('specReplicasPath'), scale.specReplicasPath, 'should be a json path under .spec'));
    }
    if ((scale.statusReplicasPath ?? '') === '') errs.push(required(p.child('statusReplicasPath')));
    else if (!scale.statusReplicasPath.startsWith('.status.')) {
      errs.push(invalid(p.child('statusReplicasPath'), scale.statusReplicasPath, 'should be a json path under .status'));
    }
    const lsp = scale.labelSelectorPath ?? '';
    if (lsp !== '' && !lsp.startsWith('.spec.') && !lsp.startsWith('.status.')) {
      errs.push(invalid(p.child('labelSelectorPath'), lsp, 'should be a json path under either .spec or .status'));
    }
  }
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    const p = path.child('additionalPrinterColumns').index(i);
    if ((c.name ?? '') === '') errs.push(required(p.child('name')));
    if ((c.type ?? '') === '') errs.push(required(p.child('type')));
    else if (!COLUMN_TYPES.includes(c.type)) errs.push(notSupported(p.child('type'), c.type, COLUMN_TYPES));
    if ((c.jsonPath ?? '') === '') errs.push(required(p.child('jsonPath')));
    if (c.priority !== undefined && c.priority < 0) errs.push(invalid(p.child('priority'), c.priority, 'must be greater than or equal to 0'));
  });
  const selectable = v.selectableFields ?? [];
  if (!sharedSelectable && selectable.length > 0) {
    // A schema hoisted to spec.validation (the same in every version) is no version's own: kube then refuses per-version fields.
    if (schema === undefined || !ownSchema) {
      errs.push(invalid(path.child('selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    } else {
      errs.push(...validateSelectableFields(selectable, schema, path.child('selectableFields')));
    }
  }
  return errs;
}

function validateNames(names: DeepReadonly<CustomResourceDefinitionNames> | undefined, path: FieldPath): FieldError[] {
  if (names === undefined) return [];
  const errs: FieldError[] = [];
  const dns = (v: string | undefined, p: FieldPath, prefix = ''): void => {
    if (v === undefined || v === '') return;
    const msgs = isDNS1035Label(prefix === '' ? v : v.toLowerCase());
    if (msgs.length > 0) errs.push(invalid(p, v, prefix + msgs.join(',')));
  };
  dns(names.plural, path.child('plural'));
  dns(names.singular, path.child('singular'));
  dns(names.kind, path.child('kind'), 'may have mixed case, but should otherwise match: ');
  dns(names.listKind, path.child('listKind'), 'may have mixed case, but should otherwise match: ');
  (names.shortNames ?? []).forEach((s, i) => dns(s, path.child('shortNames').index(i)));
  if ((names.kind ?? '') !== '' && names.kind === names.listKind) {
    errs.push(invalid(path.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  }
  (names.categories ?? []).forEach((s, i) => dns(s, path.child('categories').index(i)));
  return errs;
}
