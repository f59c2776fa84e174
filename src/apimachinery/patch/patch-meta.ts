// Patch metadata lookups over kapi's OpenAPI schema, behaving like strategicpatch's
// PatchMetaFromStruct, which kube-apiserver uses (it passes the versioned Go object). The Go
// lookups read only the `patchStrategy`/`patchMergeKey` struct tags, which the OpenAPI schema
// carries as x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key; list types and list
// map keys are server-side apply's business and play no part here. Lookups fail exactly where
// the Go reflection would: a field missing from a struct (RawExtension and other opaque structs
// have none), or an object nested in a map type.
// Counterpart of k8s.io/apimachinery/pkg/util/strategicpatch/meta.go (PatchMetaFromStruct).
import { goQuote } from '../goformat/index.ts';
import { getDefinitions } from '../openapi/index.ts';
import type { Definitions, SchemaNode } from '../openapi/index.ts';
import { otherError } from './errors.ts';

export interface PatchMeta {
  /** The x-kubernetes-patch-strategy split on ',' ([''] when the field has none, as in Go). */
  readonly patchStrategies: readonly string[];
  /** '' when the field has no merge key. */
  readonly patchMergeKey: string;
}

export interface PatchMetaLookup {
  readonly schema: LookupPatchMeta;
  readonly meta: PatchMeta;
}

/** strategicpatch.LookupPatchMeta. Both lookups throw a PatchError when the Go lookup fails. */
export interface LookupPatchMeta {
  lookupPatchMetadataForStruct(key: string): PatchMetaLookup;
  lookupPatchMetadataForSlice(key: string): PatchMetaLookup;
  /** The Go kind of the type ("struct", "map", ...), used in some error messages. */
  name(): string;
}

/** The Go type behind a schema node, as far as the patch engine can tell. */
interface GoType {
  readonly kind: string;
  /** The Go type name (last segment of the definition name), '' for unnamed types. */
  readonly name: string;
  readonly node: SchemaNode | undefined;
}

function primitiveKind(node: SchemaNode): string {
  switch (node.type) {
    case 'integer': return node.format === 'int32' ? 'int32' : 'int64';
    case 'number': return node.format === 'float' ? 'float32' : 'float64';
    case 'boolean': return 'bool';
    default: return 'string';
  }
}

function goTypeOf(field: SchemaNode | undefined, defs: Definitions, fallbackName = ''): GoType {
  let node = field;
  let name = fallbackName;
  let named = false;
  for (let hops = 0; node?.$ref !== undefined && hops < 64; hops++) {
    name = node.$ref.slice(node.$ref.lastIndexOf('.') + 1);
    named = true;
    node = defs[node.$ref];
  }
  if (node === undefined) return { kind: 'interface', name, node };
  if (node.type === 'array') return { kind: 'slice', name, node };
  if (typeof node.additionalProperties === 'object' || node.additionalProperties === true) {
    return { kind: 'map', name, node };
  }
  if (node.properties !== undefined || node.type === 'object') return { kind: 'struct', name, node };
  // A named definition is a Go struct even when it marshals as a string (Quantity, Time,
  // IntOrString) or as anything (apiextensions JSON).
  if (named || fallbackName !== '') return { kind: 'struct', name, node };
  if (node.type === undefined) return { kind: 'interface', name, node };
  return { kind: primitiveKind(node), name, node };
}

function metaOf(field: SchemaNode): PatchMeta {
  return {
    patchStrategies: (field['x-kubernetes-patch-strategy'] ?? '').split(','),
    patchMergeKey: field['x-kubernetes-patch-merge-key'] ?? '',
  };
}

class SchemaPatchMeta implements LookupPatchMeta {
  constructor(private readonly type: GoType, private readonly defs: Definitions) {}

  private field(key: string): SchemaNode {
    if (this.type.kind !== 'struct') {
      throw otherError(`merging an object in json but data type is not struct, instead is: ${this.type.kind}`);
    }
    const props = this.type.node?.properties;
    const f = props !== undefined && Object.hasOwn(props, key) ? props[key] : undefined;
    if (f === undefined) {
      throw otherError(`unable to find api field in struct ${this.type.name} for the json field ${goQuote(key)}`);
    }
    return f;
  }

  lookupPatchMetadataForStruct(key: string): PatchMetaLookup {
    const f = this.field(key);
    return { schema: new SchemaPatchMeta(goTypeOf(f, this.defs), this.defs), meta: metaOf(f) };
  }

  lookupPatchMetadataForSlice(key: string): PatchMetaLookup {
    const f = this.field(key);
    const t = goTypeOf(f, this.defs);
    if (t.kind !== 'slice') throw otherError(`expected slice or array type, but got: ${this.type.kind}`);
    const elem = goTypeOf(t.node?.items, this.defs);
    if (elem.kind === 'slice') throw otherError('unexpected slice of slice');
    return { schema: new SchemaPatchMeta(elem, this.defs), meta: metaOf(f) };
  }

  name(): string {
    return this.type.kind;
  }
}

/**
 * The lookup for a kind's schema: a definition node (e.g. from schemaForGVK) or `{ $ref: name }`.
 * The Go type name of a definition node comes from its x-kubernetes-group-version-kind.
 */
export function patchMetaFromSchema(schema: SchemaNode, defs: Definitions = getDefinitions()): LookupPatchMeta {
  const kind = schema['x-kubernetes-group-version-kind']?.[0]?.kind ?? '';
  return new SchemaPatchMeta(goTypeOf(schema, defs, kind), defs);
}
