// Builds a realistic object of a kind from its OpenAPI schema, in the JSON form kube prints:
// every property filled with a non-zero value (so omitempty never drops it), lists and maps with
// entries, times, quantities, int-or-strings, base64 bytes and embedded objects.
// No Go counterpart: test fixtures (kube fuzzes objects with
// k8s.io/apimachinery/pkg/api/apitesting/fuzzer instead).
import { getSchema, resolveSchema, type SchemaNode } from '../../../../openapi/index.ts';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const MAX_DEPTH = 14;

const SPECIAL_REFS: Readonly<Record<string, (n: number) => unknown>> = {
  [`${META}Time`]: () => '2026-01-02T03:04:05Z',
  [`${META}MicroTime`]: () => '2026-01-02T03:04:05.123456Z',
  [`${META}FieldsV1`]: () => ({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }),
  'io.k8s.apimachinery.pkg.api.resource.Quantity': (n) => (n % 2 === 0 ? '250m' : '1Gi'),
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': (n) => (n % 2 === 0 ? 8080 : 'http'),
  'io.k8s.apimachinery.pkg.runtime.RawExtension': () => ({
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'embedded' }, data: { k: 'v' },
  }),
};

class Sampler {
  private n = 0;

  value(node: SchemaNode | undefined, name: string, depth: number): unknown {
    if (node === undefined || depth > MAX_DEPTH) return undefined;
    if (node.$ref !== undefined) {
      const special = SPECIAL_REFS[node.$ref];
      if (special !== undefined) return special(this.n++);
      return this.object(getSchema(node.$ref), name, depth);
    }
    const n = this.n++;
    switch (node.type) {
      case 'string':
        if (node.enum !== undefined && node.enum.length > 0) return node.enum[n % node.enum.length];
        if (node.format === 'byte') return n % 2 === 0 ? 'aGVsbG8gd29ybGQ=' : 'AAEC/w==';
        if (node.format === 'date-time') return '2026-01-02T03:04:05Z';
        return `${name}-${n}`;
      case 'integer':
        return node.format === 'int64' ? 1_234_567_890_123 + n : 40 + n;
      case 'number':
        return 1.5;
      case 'boolean':
        return true;
      case 'array': {
        const items: unknown[] = [];
        for (let i = 0; i < (depth < 4 ? 2 : 1); i++) {
          const v = this.value(node.items, name, depth + 1);
          if (v !== undefined) items.push(v);
        }
        return items.length === 0 ? undefined : items;
      }
      default:
        return this.object(node, name, depth);
    }
  }

  private object(node: SchemaNode | undefined, _name: string, depth: number): unknown {
    const s = resolveSchema(node);
    if (s === undefined) return undefined;
    if (typeof s.additionalProperties === 'object') {
      const a = this.value(s.additionalProperties, 'value', depth + 1);
      const b = this.value(s.additionalProperties, 'value', depth + 1);
      return a === undefined || b === undefined ? undefined : { 'example.com/key-a': a, 'key-b': b };
    }
    const out: Record<string, unknown> = {};
    // A nested object of a kind (a list's items, Eviction's deleteOptions) has no TypeMeta in Go.
    const nestedKind = depth > 0 && s['x-kubernetes-group-version-kind'] !== undefined;
    for (const [prop, child] of Object.entries(s.properties ?? {})) {
      if (nestedKind && (prop === 'apiVersion' || prop === 'kind')) continue;
      if (depth === 0 && (prop === 'apiVersion' || prop === 'kind')) continue;
      const v = this.value(child, prop, depth + 1);
      if (v !== undefined) out[prop] = v;
    }
    return out;
  }
}

/** A filled object of the kind described by an OpenAPI definition, with apiVersion and kind set. */
export function sampleObject(definition: string, apiVersion: string, kind: string): Record<string, unknown> {
  const body = new Sampler().value({ $ref: definition }, kind, 0) as Record<string, unknown>;
  return { apiVersion, kind, ...body };
}
