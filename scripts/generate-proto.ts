// Generates src/generated/proto-descriptors.gen.ts: the compact protobuf descriptors of every
// message in the Kubernetes v1.36 `generated.proto` files: message names with package, field JSON
// names, numbers, types and flags. No comments or other prose are carried over. The sources
// (PROTO_SOURCES below) are
//   - ../shared/reference/kubernetes/proto (relative to the repository): k8s.io/api and
//     k8s.io/apimachinery;
//   - the Go module cache ($GOMODCACHE, else ~/go/pkg/mod) for the two modules that tree lacks:
//     k8s.io/apiextensions-apiserver (CustomResourceDefinition...) and k8s.io/kube-aggregator
//     (APIService), at MODULE_VERSION.
// This runs at development time only: its output is committed, and nothing else reads these paths.
//
// The .proto files do not say how Go's JSON encoder prints a field after a protobuf decode
// (gogo writes every non-pointer field, even at its zero value, and omitempty then drops it).
// Those facts come from the Go struct tags of k8s.io/api and k8s.io/apimachinery, kept in
// src/generated/proto-go-facts.json, which this script also writes when run as
//   node --import tsx scripts/generate-proto.ts --go-facts <k8s.io/api dir> <k8s.io/apimachinery dir>
// (checkouts of the same tags the .proto files come from); the Go facts of the module-cache
// modules are read from the module cache (EXTRA_MODULES) in the same run.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDefinitions } from '../src/apimachinery/openapi/index.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protoRoot = resolve(repo, '../shared/reference/kubernetes/proto');
const goModCache = process.env['GOMODCACHE'] ?? join(homedir(), 'go/pkg/mod');
const MODULE_VERSION = 'v0.36.3';

/**
 * Modules outside protoRoot: their directory in the module cache, the API packages under it that
 * have a generated.proto, and the Go import path go-to-protobuf turns into their proto package
 * (dashes become underscores: k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1).
 */
const EXTRA_MODULES: readonly { dir: string; importPath: string; apis: string[] }[] = [
  {
    dir: `k8s.io/apiextensions-apiserver@${MODULE_VERSION}`,
    importPath: 'k8s.io/apiextensions_apiserver',
    apis: ['pkg/apis/apiextensions/v1', 'pkg/apis/apiextensions/v1beta1'],
  },
  {
    dir: `k8s.io/kube-aggregator@${MODULE_VERSION}`,
    importPath: 'k8s.io/kube_aggregator',
    apis: ['pkg/apis/apiregistration/v1', 'pkg/apis/apiregistration/v1beta1'],
  },
];

/** Every generated.proto read: the reference tree, then the module-cache packages. */
function protoSources(): string[] {
  const files: string[] = [];
  walk(protoRoot, (p) => {
    if (p.endsWith('generated.proto')) files.push(p);
  });
  for (const m of EXTRA_MODULES) {
    for (const api of m.apis) files.push(join(goModCache, m.dir, api, 'generated.proto'));
  }
  return files;
}
const factsFile = resolve(repo, 'src/generated/proto-go-facts.json');
const output = resolve(repo, 'src/generated/proto-descriptors.gen.ts');

/** Field flags, shared with src/apimachinery/runtime/serializer/protobuf/descriptors.ts. */
const F_REPEATED = 1;
const F_MAP = 2;
const F_OMIT_ZERO = 4; // non-pointer omitempty scalar: a zero value on the wire prints as absent
const F_NULL_IF_ABSENT = 8; // non-omitempty slice or map: nothing on the wire prints as null
const F_OMIT_ZERO_STRUCT = 16; // `omitzero` struct (creationTimestamp): an empty message prints as absent
const F_INLINE = 32; // embedded struct (`json:",inline"`): its fields sit in the parent's JSON object

interface GoFacts {
  /** `<proto package>.<Message>.<proto field>` → JSON name, where the two differ. */
  readonly jsonNames: Record<string, string>;
  readonly omitZero: string[];
  readonly nullIfAbsent: string[];
  readonly omitZeroStruct: string[];
  readonly inline: string[];
  /**
   * `<proto package>.<Message>` → its proto field names in Go declaration order, for the messages
   * whose Go order is not their field-number order (Go's JSON encoder writes fields in declaration
   * order; the decoder builds objects in wire order). Messages with embedded structs are left out.
   */
  readonly goOrder: Record<string, string[]>;
}

const SCALARS = new Set(['string', 'bool', 'int32', 'int64', 'bytes', 'double', 'float', 'uint32', 'uint64']);

function walk(dir: string, visit: (path: string) => void): void {
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) walk(p, visit);
    else visit(p);
  }
}

// ---- Go facts -------------------------------------------------------------------------------

function extractGoFacts(apiDir: string, apimachineryDir: string): GoFacts {
  const facts: GoFacts = { jsonNames: {}, omitZero: [], nullIfAbsent: [], omitZeroStruct: [], inline: [], goOrder: {} };
  const scan = (root: string, importPrefix: string): void => {
    walk(root, (p) => {
      if (!p.endsWith('.go') || p.endsWith('_test.go') || p.includes('generated') || p.includes('zz_')) return;
      const rel = dirname(relative(root, p));
      const pkg = (rel === '.' ? importPrefix : `${importPrefix}/${rel}`).replace(/\//g, '.');
      const src = readFileSync(p, 'utf8');
      for (const m of src.matchAll(/^type (\w+) struct \{([\s\S]*?)^\}/gm)) {
        const order: { name: string; no: number; inline: boolean }[] = [];
        for (const line of (m[2] ?? '').split('\n')) {
          const f = /^\s+(?:\w+\s+)?(\S+)\s+`([^`]*)`/.exec(line); // embedded fields have no name
          const pb = f === null ? null : /protobuf:"([^"]*)"/.exec(f[2] ?? '');
          if (f === null || pb === null) continue;
          const goType = f[1] ?? '';
          // An embedded struct's tag may leave out name=; go-to-protobuf then names it after the type.
          const typeName = goType.replace(/^.*[.*]/, '');
          const protoName = /name=(\w+)/.exec(pb[1] ?? '')?.[1] ?? typeName.charAt(0).toLowerCase() + typeName.slice(1);
          const json = /json:"([^"]*)"/.exec(f[2] ?? '')?.[1]?.split(',') ?? [];
          const key = `${pkg}.${m[1]}.${protoName}`;
          const jsonName = json[0] ?? '';
          if (jsonName !== '' && jsonName !== '-' && jsonName !== protoName) facts.jsonNames[key] = jsonName;
          const omitempty = json.includes('omitempty');
          // Recorded for every field; the generator applies each list only to the proto shapes
          // it concerns (omitZero to scalars, nullIfAbsent to repeated and map fields).
          if (json.includes('inline')) facts.inline.push(key);
          if (json.includes('omitzero')) facts.omitZeroStruct.push(key);
          if (!omitempty) facts.nullIfAbsent.push(key);
          else if (!goType.startsWith('*')) facts.omitZero.push(key);
          order.push({ name: protoName, no: Number(/^\w+,(\d+),/.exec(pb[1] ?? '')?.[1] ?? 0), inline: json.includes('inline') });
        }
        if (!order.some((f) => f.inline) && order.some((f, i) => i > 0 && f.no < (order[i - 1]?.no ?? 0))) {
          facts.goOrder[`${pkg}.${m[1]}`] = order.map((f) => f.name);
        }
      }
    });
  };
  scan(apiDir, 'k8s.io/api');
  scan(join(apimachineryDir, 'pkg'), 'k8s.io/apimachinery/pkg');
  for (const m of EXTRA_MODULES) {
    for (const api of m.apis) scan(join(goModCache, m.dir, api), `${m.importPath}/${api}`);
  }
  facts.omitZero.sort();
  facts.nullIfAbsent.sort();
  facts.omitZeroStruct.sort();
  facts.inline.sort();
  return { ...facts, goOrder: Object.fromEntries(Object.entries(facts.goOrder).sort(([a], [b]) => a.localeCompare(b))) };
}

// ---- .proto parsing -------------------------------------------------------------------------

/** [jsonName, number, type, flags]; type is a scalar name or a fully qualified message name. */
type FieldTuple = [string, number, string, number];

function parseProtos(facts: GoFacts): Record<string, FieldTuple[]> {
  const raw: { pkg: string; msg: string; label: string; type: string; name: string; no: number }[] = [];
  const messages = new Set<string>();
  for (const p of protoSources()) {
    const src = readFileSync(p, 'utf8');
    const pkg = /^package ([\w.]+);/m.exec(src)?.[1];
    if (pkg === undefined) throw new Error(`${p}: no package`);
    let msg: string | undefined;
    for (const line of src.split('\n')) {
      const mm = /^message (\w+) \{/.exec(line);
      if (mm !== null) {
        msg = mm[1] ?? '';
        messages.add(`${pkg}.${msg}`);
        continue;
      }
      if (/^\s*\/\//.test(line) || msg === undefined) continue;
      const fm = /^\s+(optional|repeated) ([\w.]+) (\w+) = (\d+);$/.exec(line)
        ?? /^\s+(map)<string, ([\w.]+)> (\w+) = (\d+);$/.exec(line);
      if (fm !== null) {
        raw.push({ pkg, msg, label: fm[1] ?? '', type: fm[2] ?? '', name: fm[3] ?? '', no: Number(fm[4]) });
      } else if (/^\s+(optional|repeated|map|oneof|enum|message)\b/.test(line)) {
        throw new Error(`${p}: unsupported line: ${line}`);
      }
    }
  }
  const omitZero = new Set(facts.omitZero);
  const nullIfAbsent = new Set(facts.nullIfAbsent);
  const omitZeroStruct = new Set(facts.omitZeroStruct);
  const inline = new Set(facts.inline);
  const out: Record<string, FieldTuple[]> = {};
  for (const name of [...messages].sort()) out[name] = [];
  for (const f of raw) {
    let type = f.type;
    if (!SCALARS.has(type)) {
      type = type.startsWith('.') ? type.slice(1) : `${f.pkg}.${type}`;
      if (!messages.has(type)) throw new Error(`${f.pkg}.${f.msg}.${f.name}: unknown type ${f.type}`);
    }
    const key = `${f.pkg}.${f.msg}.${f.name}`;
    let flags = f.label === 'repeated' ? F_REPEATED : f.label === 'map' ? F_MAP : 0;
    if (omitZero.has(key) && flags === 0 && SCALARS.has(type)) flags |= F_OMIT_ZERO;
    if (nullIfAbsent.has(key) && flags !== 0) flags |= F_NULL_IF_ABSENT;
    if (omitZeroStruct.has(key)) flags |= F_OMIT_ZERO_STRUCT;
    if (inline.has(key)) flags |= F_INLINE;
    out[`${f.pkg}.${f.msg}`]?.push([facts.jsonNames[key] ?? f.name, f.no, type, flags]);
  }
  for (const fields of Object.values(out)) fields.sort((a, b) => a[1] - b[1]);
  return out;
}

// ---- group/version → proto package -----------------------------------------------------------

const META_PKG = 'k8s.io.apimachinery.pkg.apis.meta.v1';

function groupVersionPackages(messages: Record<string, FieldTuple[]>): Record<string, string> {
  const defs = getDefinitions();
  const groupOfDir = new Map<string, string>([['core', ''], ['extensions', 'extensions']]);
  const gv: Record<string, string> = {};
  for (const [name, def] of Object.entries(defs)) {
    if (!name.startsWith('io.k8s.api.')) continue;
    const pkg = `k8s.io.api.${name.slice('io.k8s.api.'.length).split('.').slice(0, 2).join('.')}`;
    for (const g of def['x-kubernetes-group-version-kind'] ?? []) {
      if (!pkg.endsWith(`.${g.version}`)) continue;
      gv[g.group === '' ? g.version : `${g.group}/${g.version}`] = pkg;
      groupOfDir.set(pkg.split('.')[3] ?? '', g.group);
    }
  }
  const pkgs = new Set(Object.keys(messages).map((m) => m.replace(/\.[^.]+$/, '')));
  for (const pkg of [...pkgs].sort()) {
    const parts = pkg.split('.');
    if (parts[2] !== 'api' || parts.length !== 5) continue;
    const dir = parts[3] ?? '';
    const version = parts[4] ?? '';
    const group = groupOfDir.get(dir) ?? `${dir}.k8s.io`;
    const key = group === '' ? version : `${group}/${version}`;
    gv[key] ??= pkg;
  }
  // The module-cache packages (k8s.io.<module>.pkg.apis.<group>.<version>) are all <group>.k8s.io.
  const extra = EXTRA_MODULES.map((m) => `${m.importPath.replace(/\//g, '.')}.pkg.apis.`);
  for (const pkg of pkgs) {
    const parts = pkg.split('.');
    if (parts.length !== 7 || !extra.some((e) => pkg.startsWith(e))) continue;
    gv[`${parts[5] ?? ''}.k8s.io/${parts[6] ?? ''}`] = pkg;
  }
  gv['meta.k8s.io/v1'] = META_PKG;
  gv['meta.k8s.io/v1beta1'] = 'k8s.io.apimachinery.pkg.apis.meta.v1beta1';
  return Object.fromEntries(Object.entries(gv).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * meta/v1 kinds that every group version answers with (metav1.AddToGroupVersion registers them in
 * each group; Status and the discovery kinds are unversioned).
 */
const META_KINDS = [
  'APIGroup', 'APIGroupList', 'APIResourceList', 'APIVersions', 'CreateOptions', 'DeleteOptions', 'GetOptions',
  'ListOptions', 'PatchOptions', 'Status', 'UpdateOptions', 'WatchEvent',
];

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--go-facts') {
    const [apiDir, apimachineryDir] = [args[1], args[2]];
    if (apiDir === undefined || apimachineryDir === undefined) throw new Error('usage: --go-facts <api dir> <apimachinery dir>');
    const facts = extractGoFacts(resolve(apiDir), resolve(apimachineryDir));
    writeFileSync(factsFile, `${JSON.stringify(facts, null, 1)}\n`);
    process.stdout.write(`wrote ${factsFile}\n`);
    return;
  }
  const facts = JSON.parse(readFileSync(factsFile, 'utf8')) as GoFacts;
  const messages = parseProtos(facts);
  // Go's order in JSON names, for the messages the descriptors have.
  const goOrder = Object.fromEntries(Object.entries(facts.goOrder ?? {}).filter(([m]) => messages[m] !== undefined)
    .map(([m, names]) => [m, names.map((n) => facts.jsonNames[`${m}.${n}`] ?? n)]));
  const json = JSON.stringify({ messages, groupVersions: groupVersionPackages(messages), metaKinds: META_KINDS, goOrder });
  const text = [
    '// Code generated by scripts/generate-proto.ts from the Kubernetes v1.36 generated.proto files. DO NOT EDIT.',
    '// Message names, field JSON names, numbers, types and flags, and the Go field order where it is not the numbers\' only.',
    '// Counterpart of the generated.pb.go files of k8s.io/api.',
    '',
    `export const protoDescriptorsJSON: string = '${json.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}';`,
    '',
  ].join('\n');
  writeFileSync(output, text);
  process.stdout.write(`wrote ${output}: ${Object.keys(messages).length} messages, ${json.length} bytes\n`);
}

main();
