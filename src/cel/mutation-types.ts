// kube's patch types for MutatingAdmissionPolicy expressions: `Object` and `Object.<field>…`
// (schemaless object types whose fields are all dyn), `JSONPatch` (op, path, from: string; value:
// dyn) and `jsonpatch.escapeKey`, registered on an environment with a constructor function per
// type name (constructions are rewritten into calls of them: mutation-rewrite.ts).
// Go counterparts: k8s.io/apiserver/pkg/cel/mutation/{typeresolver,jsonpatch}.go,
// mutation/dynamic/objects.go, k8s.io/apiserver/pkg/cel/library/jsonpatch.go.
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { def, fail, namespace } from './library/util.ts';
import { constructorName, fieldCheckName } from './mutation-rewrite.ts';

export const OBJECT_TYPE_NAME = 'Object';
export const JSONPATCH_TYPE_NAME = 'JSONPatch';

/** A value built by `Object…{…}`: its type name and the fields set. */
export class MutationObject {
  constructor(readonly typeName: string, readonly fields: ReadonlyMap<string, unknown>) {}
}

/** A value built by `JSONPatch{…}`. */
export class JSONPatchValue {
  op = '';
  path = '';
  from = '';
  value: unknown = undefined;
}

const objectClasses = new Map<string, new (t: string, f: ReadonlyMap<string, unknown>) => MutationObject>();
function objectClass(name: string): new (t: string, f: ReadonlyMap<string, unknown>) => MutationObject {
  let c = objectClasses.get(name);
  if (c === undefined) {
    c = class extends MutationObject {};
    Object.defineProperty(c, 'name', { value: name });
    objectClasses.set(name, c);
  }
  return c;
}

/** The fields of a construction: a map literal's entries, `?f` set only when the optional has a value. */
function fieldsOf(m: unknown): Map<string, unknown> {
  const entries: [string, unknown][] = m instanceof Map ? [...m as Map<string, unknown>] : Object.entries(m as Record<string, unknown>);
  const out = new Map<string, unknown>();
  for (const [k, v] of entries) {
    if (!k.startsWith('?')) { out.set(k, v); continue; }
    if (v instanceof Optional && v.hasValue()) out.set(k.slice(1), v.value());
  }
  return out;
}

const goTypeOf = (v: unknown): string => (typeof v === 'bigint' ? 'int64' : typeof v === 'number' ? 'float64' : typeof v === 'boolean' ? 'bool' : typeof v);

function jsonPatchOf(m: unknown): JSONPatchValue {
  const p = new JSONPatchValue();
  for (const [name, v] of fieldsOf(m)) {
    switch (name) {
      case 'op': case 'path': case 'from':
        if (typeof v !== 'string') fail(`unexpected type ${goTypeOf(v)} for JSONPatchType '${name}' field`);
        p[name] = v;
        break;
      case 'value': p.value = v; break;
      default: fail(`unexpected JSONPatchType field: ${name}`);
    }
  }
  return p;
}

/** escapeKey: `~` → `~0`, `/` → `~1` (RFC 6901). */
export const escapeKey = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Registers JSONPatch, jsonpatch.escapeKey and a constructor per Object type name on `lib`. */
export function registerPatchTypes(lib: Environment, typeNames: readonly string[]): void {
  lib.registerType(JSONPATCH_TYPE_NAME, { ctor: JSONPatchValue, fields: { op: 'string', path: 'string', from: 'string', value: 'dyn' } });
  def(lib, `${constructorName(JSONPATCH_TYPE_NAME)}(map<string, dyn>): ${JSONPATCH_TYPE_NAME}`, (m: unknown) => jsonPatchOf(m));
  // dyn in: the checker's type of the argument is judged after compiling (fieldTypeIssues), as cel-go's field check.
  for (const f of ['op', 'path', 'from']) def(lib, `${fieldCheckName(f)}(dyn): dyn`, (v: unknown) => v);
  const NS = 'kubernetes.JSONPatchNamespace';
  namespace(lib, 'jsonpatch', NS);
  def(lib, `${NS}.escapeKey(string): string`, (_ns: unknown, s: string) => escapeKey(s));
  for (const name of typeNames) {
    if (name !== OBJECT_TYPE_NAME && !name.startsWith(`${OBJECT_TYPE_NAME}.`)) continue;
    const ctor = objectClass(name);
    lib.registerType(name, { ctor, fields: {} });
    def(lib, `${constructorName(name)}(map<string, dyn>): ${name}`, (m: unknown) => new ctor(name, fieldsOf(m)));
  }
}
