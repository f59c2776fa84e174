// The definitions kube publishes for a custom resource (apiextensions-apiserver's
// controller/openapi/builder): the kind, from the CRD version's schema with apiVersion, kind and
// metadata added (and, in every embedded resource, those three with required kind and
// apiVersion), and its list. The v2 form strips what OpenAPI v2 cannot say (see toOpenAPIV2);
// a schema that keeps unknown fields at its root is a bare object in v2.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder.
import type { DefinitionDocs } from '../../apimachinery/openapi/docs.ts';
import type { SchemaGVK } from '../../apimachinery/openapi/types.ts';
import { refPointer, type JsonObject, type OpenAPIFormat } from '../../endpoints/openapi/schema-json.ts';
import { definitionName } from '../schema/convert.ts';
import { toKubeOpenAPI, toOpenAPIV2 } from './structural.ts';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
// The texts kube's builder writes itself (the rest comes from the built-in definitions' docs).
const EMBEDDED_API_VERSION = 'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const EMBEDDED_KIND = 'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

export interface CustomResourceOpenAPI {
  /** The version's openAPIV3Schema (undefined: the kind is a bare object). */
  readonly schema: unknown;
  readonly gvk: SchemaGVK;
  readonly plural: string;
  readonly listKind: string;
  /** The version's selectableFields' jsonPaths. */
  readonly selectableFields?: readonly string[];
  /** The CRD's spec.preserveUnknownFields (v1beta1 leftovers). */
  readonly preserveUnknownFields?: boolean;
}

/** A $ref with a description, as kube-openapi writes it: siblings in v2, allOf-wrapped in v3. */
function describedRef(format: OpenAPIFormat, name: string, description: string | undefined): JsonObject {
  const d: JsonObject = description === undefined ? {} : { description };
  return format === 'v2' ? { ...d, $ref: refPointer(format, name) } : { ...d, allOf: [{ $ref: refPointer(format, name) }] };
}

function typeMetaProperty(docs: DefinitionDocs, name: 'apiVersion' | 'kind', description?: string): JsonObject {
  const d = description ?? docs[`${META}TypeMeta`]?.properties?.[name]?.description;
  return d === undefined ? { type: 'string' } : { description: d, type: 'string' };
}

const metadataDescription = (docs: DefinitionDocs, list: boolean): string | undefined =>
  docs[`${META}${list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata'}`]?.properties?.['metadata']?.description;

/** addEmbeddedProperties, in place, depth first (v2: not below a node that keeps unknown fields). */
function addEmbeddedProperties(s: JsonObject, format: OpenAPIFormat, docs: DefinitionDocs): void {
  const props = s['properties'];
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
    for (const v of Object.values(props)) addEmbeddedProperties(v as JsonObject, format, docs);
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    const c = s[key];
    if (typeof c === 'object' && c !== null && !Array.isArray(c)) addEmbeddedProperties(c, format, docs);
  }
  if (format === 'v2' && s['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  const p = (s['properties'] ?? {}) as JsonObject;
  p['apiVersion'] = typeMetaProperty(docs, 'apiVersion', EMBEDDED_API_VERSION);
  p['kind'] = typeMetaProperty(docs, 'kind', EMBEDDED_KIND);
  p['metadata'] = describedRef(format, `${META}ObjectMeta`, metadataDescription(docs, false));
  s['properties'] = sortedKeys(p);
  const req = Array.isArray(s['required']) ? [...s['required']] : [];
  if (!req.includes('kind')) req.push('kind');
  if (!req.includes('apiVersion')) req.push('apiVersion');
  s['required'] = req;
}

const sortedKeys = (o: JsonObject): JsonObject => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k] ?? null]));

function selectable(cr: CustomResourceOpenAPI): JsonObject {
  if (cr.selectableFields === undefined || cr.selectableFields.length === 0) return {};
  return { 'x-kubernetes-selectable-fields': cr.selectableFields.map((p) => ({ fieldPath: p.replace(/^\./, '') })) };
}

/** buildKubeNative: the kind's published schema. */
function kindSchema(cr: CustomResourceOpenAPI, format: OpenAPIFormat, docs: DefinitionDocs): JsonObject {
  const gvk = { 'x-kubernetes-group-version-kind': [{ group: cr.gvk.group, kind: cr.gvk.kind, version: cr.gvk.version }] };
  const root = cr.schema === undefined ? undefined : toKubeOpenAPI(cr.schema);
  if (root === undefined || (format === 'v2' && (root['x-kubernetes-preserve-unknown-fields'] === true || cr.preserveUnknownFields === true))) {
    return { type: 'object', ...gvk, ...selectable(cr) };
  }
  const s = format === 'v2' ? toOpenAPIV2(root) : root;
  const props = (s['properties'] ?? {}) as JsonObject;
  props['metadata'] = describedRef(format, `${META}ObjectMeta`, metadataDescription(docs, false));
  props['apiVersion'] = typeMetaProperty(docs, 'apiVersion');
  props['kind'] = typeMetaProperty(docs, 'kind');
  s['properties'] = sortedKeys(props);
  addEmbeddedProperties(s, format, docs);
  return { ...s, ...gvk, ...selectable(cr) };
}

/** buildListSchema: the list kind's published schema. */
function listSchema(cr: CustomResourceOpenAPI, format: OpenAPIFormat, docs: DefinitionDocs): JsonObject {
  const kindName = definitionName(cr.gvk.group, cr.gvk.version, cr.gvk.kind);
  return {
    description: `${cr.listKind} is a list of ${cr.gvk.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: typeMetaProperty(docs, 'apiVersion'),
      items: {
        description: `List of ${cr.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array', items: { $ref: refPointer(format, kindName) },
      },
      kind: typeMetaProperty(docs, 'kind'),
      metadata: describedRef(format, `${META}ListMeta`, metadataDescription(docs, true)),
    },
    'x-kubernetes-group-version-kind': [{ group: cr.gvk.group, kind: cr.listKind, version: cr.gvk.version }],
    ...selectable(cr),
  };
}

/** The kind's and the list's published definitions, by definition name. */
export function customResourceDefinitions(cr: CustomResourceOpenAPI, format: OpenAPIFormat, docs: DefinitionDocs): Record<string, JsonObject> {
  const name = definitionName(cr.gvk.group, cr.gvk.version, cr.gvk.kind);
  return { [name]: kindSchema(cr, format, docs), [`${name}List`]: listSchema(cr, format, docs) };
}
