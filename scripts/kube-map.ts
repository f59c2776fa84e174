// Reads the header of every kapi source file (its first comment lines, which name the Go code it
// is the counterpart of) and turns it into docs/kube-map.md, a map from kube-apiserver's packages
// to kapi's files. The header is prose; what this parser takes from it are the Go references:
//   - import paths: k8s.io/apiserver/pkg/admission, sigs.k8s.io/structured-merge-diff/...;
//   - paths in the kubernetes repository: pkg/registry/core/pod, plugin/pkg/admission/...;
//   - a module name then a path in it: "apiextensions-apiserver pkg/apiserver/schema";
//   - Go standard library packages: encoding/json, net/http, regexp/syntax;
//   - package-qualified names whose package is known (ALIASES): metav1.Time, strconv.Quote;
//   - "No Go counterpart", for kapi's own code (the bench, test harnesses, the oracle).
// A header without any of these is a finding: the map's test fails and names the file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface GoRef {
  /** Go import path of the package (or `kapi` for "No Go counterpart"). */
  readonly pkg: string;
  /** A file or name inside the package the header names, when it names one. */
  readonly detail?: string;
}

export interface FileHeader {
  readonly file: string;
  /** The header's comment text, one string. */
  readonly text: string;
  readonly refs: readonly GoRef[];
}

/** Package names headers qualify identifiers with, and their import paths. */
export const ALIASES: Readonly<Record<string, string>> = {
  metav1: 'k8s.io/apimachinery/pkg/apis/meta/v1',
  strategicpatch: 'k8s.io/apimachinery/pkg/util/strategicpatch',
  labels: 'k8s.io/apimachinery/pkg/labels',
  fields: 'k8s.io/apimachinery/pkg/fields',
  runtime: 'k8s.io/apimachinery/pkg/runtime',
  resource: 'k8s.io/apimachinery/pkg/api/resource',
  managedfields: 'k8s.io/apimachinery/pkg/util/managedfields',
  fieldpath: 'sigs.k8s.io/structured-merge-diff/v6/fieldpath',
  merge: 'sigs.k8s.io/structured-merge-diff/v6/merge',
  value: 'sigs.k8s.io/structured-merge-diff/v6/value',
  structuraldefaulting: 'k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting',
  utilnet: 'k8s.io/apimachinery/pkg/util/net',
  netutils: 'k8s.io/utils/net',
  jsonpatch: 'github.com/evanphx/json-patch',
  apiequality: 'k8s.io/apimachinery/pkg/api/equality',
  authenticator: 'k8s.io/apiserver/pkg/authentication/authenticator',
  duration: 'k8s.io/apimachinery/pkg/util/duration',
  routes: 'k8s.io/apiserver/pkg/server/routes',
  content: 'k8s.io/apimachinery/pkg/api/validate/content',
  version: 'k8s.io/apimachinery/pkg/version',
  qos: 'k8s.io/kubernetes/pkg/apis/core/helper/qos',
  strconv: 'strconv',
  time: 'time',
  json: 'encoding/json',
  url: 'net/url',
  http: 'net/http',
  mime: 'mime',
  sort: 'sort',
  regexp: 'regexp',
  fmt: 'fmt',
};

/** Standard library paths a header may name without qualifying an identifier. */
const STD = ['encoding/json', 'encoding/csv', 'encoding/pem', 'encoding/asn1', 'encoding/base64', 'net/http',
  'net/url', 'net/netip', 'crypto/x509', 'crypto/tls', 'regexp/syntax', 'mime/multipart', 'text/template'];

/** Modules whose own paths headers write after the module's name ("kube-aggregator pkg/..."). */
const MODULES: Readonly<Record<string, string>> = {
  'apiextensions-apiserver': 'k8s.io/apiextensions-apiserver',
  'kube-aggregator': 'k8s.io/kube-aggregator',
  'kube-openapi': 'k8s.io/kube-openapi',
  'client-go': 'k8s.io/client-go',
  apiserver: 'k8s.io/apiserver',
  apimachinery: 'k8s.io/apimachinery',
};

const PATH_CHARS = String.raw`[A-Za-z0-9_.\/{},*-]*[A-Za-z0-9_}*]`;
const IMPORT_PATH = new RegExp(String.raw`(?<![\w.-])((?:k8s\.io|sigs\.k8s\.io|github\.com|golang\.org\/x|go\.etcd\.io|gopkg\.in)\/${PATH_CHARS})`, 'g');
const MODULE_PATH = new RegExp(String.raw`(?<![\w./-])(?:k8s\.io\/)?(${Object.keys(MODULES).join('|')})(?:'s)? ((?:pkg|third_party)\/${PATH_CHARS})`, 'g');
const REPO_PATH = new RegExp(String.raw`(?<![\w./-])((?:pkg|plugin|cmd|staging|test)\/${PATH_CHARS})`, 'g');
const STD_PATH = new RegExp(String.raw`(?<![\w./-])(${STD.map((s) => s.replace('/', '\\/')).join('|')})\b`, 'g');
const QUALIFIED = new RegExp(String.raw`(?<![\w./-])(${Object.keys(ALIASES).join('|')})\.([A-Z]\w*)`, 'g');
const OWN = /\bno Go counterpart\b/i;

/** The leading `//` comment lines of a source file (after a shebang), as one string. */
export function headerText(source: string): string {
  const lines = source.split('\n');
  let i = lines[0]?.startsWith('#!') ? 1 : 0;
  const out: string[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/\s?/, ''));
  }
  return out.join(' ').replace(/\s+/g, ' ').trim();
}

/** Splits a path as written into its package and, when it ends in a file or a brace list, that detail. */
export function toRef(path: string): GoRef {
  const p = path.replace(/[.,]+$/, '');
  const brace = p.indexOf('{');
  if (brace >= 0) return { pkg: p.slice(0, brace).replace(/\/+$/, ''), detail: p.slice(brace) };
  const parts = p.split('/');
  const last = parts[parts.length - 1] ?? '';
  if (/\.(go|proto)$/.test(last) || last.includes('*')) return { pkg: parts.slice(0, -1).join('/'), detail: last };
  const named = /^([\w-]+)\.([A-Z]\w*)$/.exec(last);
  if (named !== null) return { pkg: [...parts.slice(0, -1), named[1] ?? ''].join('/'), detail: named[2] ?? '' };
  return { pkg: p };
}

/** Every Go reference a header makes, in the order written, without repeats. */
export function parseRefs(text: string): GoRef[] {
  const found: { at: number; ref: GoRef }[] = [];
  const taken: [number, number][] = [];
  const free = (at: number, len: number): boolean => taken.every(([a, b]) => at + len <= a || at >= b);
  const add = (at: number, len: number, ref: GoRef): void => {
    if (!free(at, len)) return;
    taken.push([at, at + len]);
    found.push({ at, ref });
  };
  // A module name then a path in it first, so that "k8s.io/apiextensions-apiserver pkg/..." is one reference.
  for (const m of text.matchAll(MODULE_PATH)) add(m.index, m[0].length, toRef(`${MODULES[m[1] ?? ''] ?? ''}/${m[2] ?? ''}`));
  for (const m of text.matchAll(IMPORT_PATH)) add(m.index, m[0].length, toRef(m[1] ?? ''));
  for (const m of text.matchAll(REPO_PATH)) add(m.index, m[0].length, toRef(`k8s.io/kubernetes/${m[1] ?? ''}`));
  for (const m of text.matchAll(STD_PATH)) add(m.index, m[0].length, { pkg: m[1] ?? '' });
  for (const m of text.matchAll(QUALIFIED)) add(m.index, m[0].length, { pkg: ALIASES[m[1] ?? ''] ?? '', detail: m[2] ?? '' });
  const own = OWN.exec(text);
  if (own) add(own.index, own[0].length, { pkg: 'kapi' });
  const seen = new Set<string>();
  return found.sort((a, b) => a.at - b.at).map((f) => f.ref).filter((r) => {
    const key = `${r.pkg} ${r.detail ?? ''}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** The non-test TypeScript source files under `dir`, repository-relative, sorted. */
export function sourceFiles(root: string, dir = 'src'): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(relative(root, p));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

export function readHeaders(root: string): FileHeader[] {
  return sourceFiles(root).map((file) => {
    const text = headerText(readFileSync(join(root, file), 'utf8'));
    return { file, text, refs: parseRefs(text) };
  });
}

/** Files whose header names no Go counterpart (nor says it has none). */
export const unparseable = (headers: readonly FileHeader[]): string[] =>
  headers.filter((h) => h.refs.length === 0).map((h) => h.file);

const STD_MODULE = 'Go standard library';
const OWN_MODULE = 'kapi only (no Go counterpart)';

/** The module a package belongs to: k8s.io/<repo>, sigs.k8s.io/<repo>, github.com/<owner>/<repo>, the standard library, or kapi. */
export function moduleOf(pkg: string): string {
  if (pkg === 'kapi') return OWN_MODULE;
  const parts = pkg.split('/');
  const host = parts[0] ?? '';
  if (!host.includes('.')) return STD_MODULE;
  if (host === 'github.com' || host === 'golang.org' || host === 'gopkg.in') return parts.slice(0, 3).join('/');
  return parts.slice(0, 2).join('/');
}

const escapeCell = (s: string): string => s.replace(/\|/g, '\\|');

/** docs/kube-map.md: one table per Go module, a row per (package, kapi file), packages sorted. */
export function renderMap(headers: readonly FileHeader[]): string {
  const byModule = new Map<string, Map<string, Map<string, Set<string>>>>();
  for (const h of headers) {
    for (const ref of h.refs) {
      const mod = moduleOf(ref.pkg);
      const pkgs = byModule.get(mod) ?? new Map<string, Map<string, Set<string>>>();
      byModule.set(mod, pkgs);
      const rel = mod === STD_MODULE || mod === OWN_MODULE ? ref.pkg : ref.pkg.slice(mod.length).replace(/^\//, '') || '.';
      const files = pkgs.get(rel) ?? new Map<string, Set<string>>();
      pkgs.set(rel, files);
      const details = files.get(h.file) ?? new Set<string>();
      files.set(h.file, details);
      if (ref.detail !== undefined) details.add(ref.detail);
    }
  }
  // kubernetes, its staging modules, sigs.k8s.io, other modules, the standard library, kapi's own;
  // names compared by code unit, never by locale, so that every machine writes the same map.
  const rank = (m: string): number => m === 'k8s.io/kubernetes' ? 0 : m.startsWith('k8s.io/') ? 1
    : m.startsWith('sigs.k8s.io/') ? 2 : m === STD_MODULE ? 4 : m === OWN_MODULE ? 5 : 3;
  const modules = [...byModule.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: string[] = [
    '# kube-apiserver → kapi',
    '',
    '<!-- Generated by `npm run generate:kube-map` (scripts/gen-kube-map.ts) from the header comment of every',
    'source file under src/. Do not edit: change the headers and regenerate. src/docs-map.test.ts fails',
    'when this file is stale or a header names no Go counterpart. -->',
    '',
    'Every kapi source file opens with a comment naming the Go code it is the counterpart of. This',
    'map collects them: for each Go module and package kapi mirrors, the kapi files that do its job,',
    'with the Go files or names the header mentions. A file appears under every package it names.',
    `${headers.length} files, ${modules.length} modules.`,
    '',
    '## Modules',
    '',
    ...modules.map((m) => `- [${m}](#${anchor(m)}): ${byModule.get(m)?.size ?? 0} packages`),
  ];
  for (const mod of modules) {
    const pkgs = byModule.get(mod) ?? new Map<string, Map<string, Set<string>>>();
    out.push('', `## ${mod}`, '', '| package | kapi file | Go names or files |', '|---|---|---|');
    for (const pkg of [...pkgs.keys()].sort()) {
      const files = pkgs.get(pkg) ?? new Map<string, Set<string>>();
      for (const file of [...files.keys()].sort()) {
        const details = [...(files.get(file) ?? [])].map((d) => `\`${escapeCell(d)}\``).join(', ');
        out.push(`| \`${escapeCell(pkg)}\` | [${file}](../${file}) | ${details} |`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/** GitHub's heading anchor: lower case, punctuation other than - and _ dropped, spaces to -. */
export const anchor = (heading: string): string =>
  heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
