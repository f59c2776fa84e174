// Generates the TypeScript wire types of every built-in definition (src/generated/types/), one
// module per Go package, named as Go code imports it (corev1, metav1, appsv1, intstr, ...), plus
// index.gen.ts, which re-exports each as a namespace: `import type { corev1 } from '.../index.gen.ts'`.
// Input: src/generated/definitions.gen.ts, the structural facts scripts/generate-schemas.ts keeps
// from the reference OpenAPI spec; so the input is in the repository and the check runs anywhere.
// Types describe the JSON wire shape: required properties are required, the rest optional;
// Quantity, Time and friends are strings, IntOrString is `number | string`, free-form JSON is unknown.
// With --check, writes nothing and exits 1 (naming the stale files) when the output is not current.
// No Go counterpart: a generator (kube's types are the Go structs of k8s.io/api and friends).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { definitionsJSON } from '../src/generated/definitions.gen.ts';
import type { Definitions, SchemaNode } from '../src/apimachinery/openapi/types.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(repo, 'src', 'generated', 'types');

/** `io.k8s.api.core.v1` → `corev1`; `io.k8s.apimachinery.pkg.util.intstr` → `intstr`: Go's usual import names. */
export function packageAlias(pkg: string): string {
  const parts = pkg.split('.');
  const last = parts[parts.length - 1] ?? '';
  return /^v\d+((alpha|beta)\d+)?$/.test(last) ? `${parts[parts.length - 2] ?? ''}${last}` : last;
}

/** The Go import path of a definition package: `io.k8s.api.core.v1` → `k8s.io/api/core/v1`. */
export function goImportPath(pkg: string): string {
  const [module = '', ...rest] = pkg.replace(/^io\.k8s\./, '').split('.');
  return ['k8s.io', module, ...rest].join('/');
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propName = (n: string): string => (IDENT.test(n) ? n : JSON.stringify(n));

interface Emitter {
  readonly pkg: string;
  /** Aliases of the other packages this one refers to. */
  readonly imports: Map<string, string>;
}

function refType(ref: string, e: Emitter): string {
  const at = ref.lastIndexOf('.');
  const pkg = ref.slice(0, at);
  const name = ref.slice(at + 1);
  if (pkg === e.pkg) return name;
  const alias = packageAlias(pkg);
  e.imports.set(alias, pkg);
  return `${alias}.${name}`;
}

/** The TS type of a schema node; `indent` is the indentation of the line the type starts on. */
function typeOf(s: SchemaNode, e: Emitter, indent: string): string {
  if (s.$ref !== undefined) return refType(s.$ref, e);
  if (s.format === 'int-or-string' || s['x-kubernetes-int-or-string'] === true) return 'number | string';
  switch (s.type) {
    case 'string': return s.enum !== undefined ? s.enum.map((v) => JSON.stringify(v)).join(' | ') : 'string';
    case 'integer':
    case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'array': {
      const item = s.items === undefined ? 'unknown' : typeOf(s.items, e, indent);
      return /[ |]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object': {
      if (s.properties !== undefined) return objectType(s, e, indent);
      const ap = s.additionalProperties;
      return `{ [key: string]: ${typeof ap === 'object' ? typeOf(ap, e, indent) : 'unknown'} }`;
    }
    default: return 'unknown';
  }
}

function objectType(s: SchemaNode, e: Emitter, indent: string): string {
  const required = new Set(s.required ?? []);
  const inner = `${indent}  `;
  const lines = Object.keys(s.properties ?? {}).sort().map((name) => {
    const p = s.properties?.[name] ?? {};
    return `${inner}${propName(name)}${required.has(name) ? '' : '?'}: ${typeOf(p, e, inner)};`;
  });
  return lines.length === 0 ? '{ [key: string]: unknown }' : `{\n${lines.join('\n')}\n${indent}}`;
}

function gvkComment(s: SchemaNode): string[] {
  const gvks = s['x-kubernetes-group-version-kind'] ?? [];
  if (gvks.length !== 1) return [];
  const [g] = gvks;
  return g === undefined ? [] : [`/** ${g.group === '' ? '' : `${g.group}/`}${g.version} ${g.kind} */`];
}

/** Every output file (name → text) for a set of definitions. */
export function generateTypes(defs: Definitions): Map<string, string> {
  const byPkg = new Map<string, string[]>();
  for (const name of Object.keys(defs).sort()) {
    const pkg = name.slice(0, name.lastIndexOf('.'));
    byPkg.set(pkg, [...byPkg.get(pkg) ?? [], name]);
  }
  const files = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const [pkg, names] of byPkg) {
    const alias = packageAlias(pkg);
    const clash = aliases.get(alias);
    if (clash !== undefined) throw new Error(`packages ${clash} and ${pkg} would share the module name ${alias}`);
    aliases.set(alias, pkg);
    const e: Emitter = { pkg, imports: new Map() };
    const body: string[] = [];
    for (const name of names) {
      const s = defs[name] ?? {};
      const typeName = name.slice(pkg.length + 1);
      const t = typeOf(s, e, '');
      body.push('', ...gvkComment(s), t.startsWith('{\n') ? `export interface ${typeName} ${t}` : `export type ${typeName} = ${t};`);
    }
    const imports = [...e.imports.keys()].sort().map((a) => `import type * as ${a} from './${a}.gen.ts';`);
    files.set(`${alias}.gen.ts`, [
      '// Code generated by scripts/generate-types.ts from src/generated/definitions.gen.ts. DO NOT EDIT.',
      `// Wire types (JSON) of ${pkg}. Counterpart of ${goImportPath(pkg)}.`,
      ...imports, ...body, '',
    ].join('\n'));
  }
  const index = [...aliases.keys()].sort().map((a) => `export type * as ${a} from './${a}.gen.ts';`);
  files.set('index.gen.ts', [
    '// Code generated by scripts/generate-types.ts from src/generated/definitions.gen.ts. DO NOT EDIT.',
    '// Every generated package of wire types, as a namespace named as Go imports it (corev1, metav1, ...).',
    '// No Go counterpart: an index of the generated modules.',
    ...index, '',
  ].join('\n'));
  return files;
}

function main(): void {
  const files = generateTypes(JSON.parse(definitionsJSON) as Definitions);
  const present = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith('.gen.ts')) : [];
  if (process.argv.includes('--check')) {
    const stale = [...files].filter(([f, text]) => !existsSync(join(outDir, f)) || readFileSync(join(outDir, f), 'utf8') !== text).map(([f]) => f);
    const extra = present.filter((f) => !files.has(f));
    for (const f of [...stale, ...extra]) console.error(`src/generated/types/${f} is not what scripts/generate-types.ts generates: run npm run generate:types`);
    process.exit(stale.length + extra.length > 0 ? 1 : 0);
  }
  mkdirSync(outDir, { recursive: true });
  for (const f of present) if (!files.has(f)) rmSync(join(outDir, f));
  for (const [f, text] of files) writeFileSync(join(outDir, f), text);
  console.log(`wrote ${files.size} files to ${outDir}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
