// kube-openapi's deduplicateParameters (builder/parameters.go) for /openapi/v2: every parameter
// but `name`, `dryRun`, `fieldValidation` (kubectl looks for those two inline) and bodies of a
// kind's own schema moves to the document's `parameters` section, named "<name>-<hash>" where
// the hash is the base64url of the first 6 bytes of the FNV-1 64 hash of Go's JSON of the
// parameter, and operations refer to it. This keeps /openapi/v2 at kube's size: its ~1,100
// operations would otherwise repeat the same long texts.
// Counterpart of k8s.io/kube-openapi/pkg/builder/parameters.go.
import type { JsonObject, JsonValue } from './schema-json.ts';

const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's encoding/json text: HTML-sensitive characters and the JS line separators escaped. */
const goJSON = (v: JsonValue): string => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')
  .replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const MASK = 0xffffffffffffffffn;

/** kube-openapi's base64Hash: FNV-1 (64 bit), first 6 bytes, base64url (8 characters). */
function parameterHash(s: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, 'utf8')) h = ((h * 0x100000001b3n) & MASK) ^ BigInt(b);
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(h);
  return out.subarray(0, 6).toString('base64url');
}

function shareable(p: JsonObject): boolean {
  const { name, in: where } = p;
  if ((where === 'query' || where === 'path') && name === 'name') return false;
  if (where === 'query' && (name === 'fieldValidation' || name === 'dryRun')) return false;
  if (where === 'body') {
    const schema = p['schema'];
    const ref = isObject(schema) ? schema['$ref'] : undefined;
    return typeof ref === 'string' && ref.startsWith('#/definitions/io.k8s.apimachinery');
  }
  return true;
}

/**
 * Replaces the shareable parameters of every operation and path in `paths` (in place) by
 * references, and returns the `parameters` section they refer to, sorted by name.
 */
export function shareParameters(paths: JsonObject): JsonObject {
  const names = new Map<string, string>();
  const section: JsonObject = {};
  const share = (list: JsonValue | undefined): void => {
    if (!Array.isArray(list)) return;
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      if (!isObject(p) || p['$ref'] !== undefined || !shareable(p)) continue;
      const key = goJSON(p);
      let name = names.get(key);
      if (name === undefined) {
        name = `${typeof p['name'] === 'string' && p['name'] !== '' ? p['name'] : 'param'}-${parameterHash(key)}`;
        names.set(key, name);
        section[name] = p;
      }
      list[i] = { $ref: `#/parameters/${name}` };
    }
  };
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const [key, op] of Object.entries(item)) {
      if (key === 'parameters') share(op);
      else if (isObject(op)) share(op['parameters']);
    }
  }
  return Object.fromEntries(Object.keys(section).sort().map((k) => [k, section[k] ?? null]));
}
