// A CRD version's schema in kapi's compact SchemaNode form: for decoding bodies (pruning and
// field validation) and for publishing the custom resource in OpenAPI. The root gains
// apiVersion, kind and metadata (ObjectMeta), as kube's published CRD schemas do.
// Counterpart of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/kubeopenapi.go.
import type { SchemaGVK, SchemaNode } from '../../apimachinery/openapi/types.ts';
import type { DeepReadonly } from '../../registry/rest/strategy.ts';
import type { JSONSchemaProps } from '../v1/types.ts';
import { setKey } from '../../apimachinery/patch/index.ts';

type Schema = DeepReadonly<JSONSchemaProps>;
type Mutable = { -readonly [K in keyof SchemaNode]: SchemaNode[K] };

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

export function toSchemaNode(s: Schema): SchemaNode {
  const out: Mutable = {};
  if (s.type !== undefined && s.type !== '') out.type = s.type;
  if (s.format !== undefined) out.format = s.format;
  if (s.properties !== undefined) {
    const props: Record<string, SchemaNode> = {};
    for (const [k, v] of Object.entries(s.properties)) setKey(props, k, toSchemaNode(v));
    out.properties = props;
  }
  if (s.required !== undefined && s.required.length > 0) out.required = [...s.required];
  if (s.items !== undefined) out.items = toSchemaNode(s.items);
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : toSchemaNode(s.additionalProperties);
  }
  if (s.enum !== undefined) out.enum = [...s.enum];
  if (s.default !== undefined) out.default = s.default;
  if (s['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-list-map-keys'] !== undefined) out['x-kubernetes-list-map-keys'] = [...s['x-kubernetes-list-map-keys']];
  if (s['x-kubernetes-map-type'] !== undefined) out['x-kubernetes-map-type'] = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-int-or-string'] === true) out['x-kubernetes-int-or-string'] = true;
  if (s['x-kubernetes-preserve-unknown-fields'] === true) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s['x-kubernetes-embedded-resource'] === true) out['x-kubernetes-embedded-resource'] = true;
  return out;
}

/**
 * The schema request bodies are decoded with: objects and arrays keep their shape (so unknown
 * fields are pruned and reported), scalars lose their type, because custom resources decode as
 * unstructured JSON and a wrong scalar type is the validator's 422, not a decoding error.
 */
export function toDecodeSchema(s: Schema): SchemaNode {
  const n = toSchemaNode(s);
  const strip = (x: SchemaNode): SchemaNode => {
    const out: Mutable = { ...x };
    if (out.type !== 'object' && out.type !== 'array') delete out.type;
    delete out['x-kubernetes-int-or-string'];
    delete out.format;
    if (out.properties !== undefined) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, strip(v)]));
    if (out.items !== undefined) out.items = strip(out.items);
    if (typeof out.additionalProperties === 'object') out.additionalProperties = strip(out.additionalProperties);
    return out;
  };
  return strip(n);
}

/** kube's published definition name: the reversed group, version and kind ("com.example.stable.v1.CronTab"). */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/** The published schema of the kind: the CRD's root with apiVersion, kind and metadata (ObjectMeta). */
export function kindSchema(s: Schema, gvk: SchemaGVK): SchemaNode {
  const root = toSchemaNode(s);
  return {
    ...root,
    type: 'object',
    properties: { ...root.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: OBJECT_META } },
    'x-kubernetes-group-version-kind': [gvk],
  };
}

/** The published schema of the kind (root with apiVersion, kind, metadata) and of its list. */
export function publishedSchemas(s: Schema, gvk: SchemaGVK, listKind: string): Record<string, SchemaNode> {
  const name = definitionName(gvk.group, gvk.version, gvk.kind);
  const kindNode = kindSchema(s, gvk);
  const listNode: SchemaNode = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' }, items: { type: 'array', items: { $ref: name } }, kind: { type: 'string' },
      metadata: { $ref: LIST_META },
    },
    required: ['items'],
    'x-kubernetes-group-version-kind': [{ ...gvk, kind: listKind }],
  };
  return { [name]: kindNode, [`${name}List`]: listNode };
}
