// Imports point downwards only: a layer may import its own folder and the layers below it
// (ARCHITECTURE.md). This test reads every source file and checks each relative import. And no
// module imports itself through others, type-only imports included: a cycle means two files are
// one concept split in two, or a contract that names its implementation (issue 13). No double
// cast (`as unknown as`) outside tests and generated code: a value of the wrong type is a missing
// interface, not something to cast away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Lower rank = lower layer. Layers of equal rank may not import each other. */
const RANK: Readonly<Record<string, number>> = {
  generated: 0, apimachinery: 1, cel: 1.5, storage: 2, client: 2.5, webhook: 2.6, registry: 3, admission: 3, authn: 3, authz: 3, audit: 3, endpoints: 4,
  server: 5, apis: 6, apiextensions: 6, aggregator: 6, controlplane: 7, cli: 8, 'index.ts': 8.5, oracle: 8.7, bench: 9, e2e: 9, 'layering.test.ts': 9,
};

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const layerOf = (file: string): string => relative(SRC, file).split('/')[0] ?? '';

test('every relative import points to the same layer or a lower one', () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const from = layerOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)[^'"]*from\s+'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), m[1] ?? '');
      const to = layerOf(target);
      if (to === from) continue;
      const rf = RANK[from];
      const rt = RANK[to];
      assert.ok(rf !== undefined, `unknown layer ${from}: add it to RANK`);
      assert.ok(rt !== undefined, `unknown layer ${to}: add it to RANK`);
      if (rt >= rf) violations.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
    }
  }
  assert.deepEqual(violations, []);
});

/** Every relative module a file names in an import or re-export, `import type` included. */
export function relativeImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)) out.push(m[1] ?? '');
  for (const m of text.matchAll(/^\s*import\s+'(\.[^']+)'/gm)) out.push(m[1] ?? '');
  return out;
}

/** The strongly connected components with more than one file (or a file importing itself): Tarjan. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      scc.push(w);
      if (w === v) break;
    }
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('cycles finds the strongly connected components of an import graph', () => {
  const cases: { name: string; edges: Record<string, string[]>; want: string[][] }[] = [
    { name: 'a chain', edges: { a: ['b'], b: ['c'], c: [] }, want: [] },
    { name: 'a pair', edges: { a: ['b'], b: ['a'] }, want: [['a', 'b']] },
    { name: 'a self import', edges: { a: ['a'] }, want: [['a']] },
    { name: 'a ring of four behind a tail', edges: { t: ['a'], a: ['b'], b: ['c'], c: ['d'], d: ['a'] }, want: [['a', 'b', 'c', 'd']] },
  ];
  for (const c of cases) assert.deepEqual(cycles(new Map(Object.entries(c.edges))), c.want, c.name);
});

test('relativeImports sees type-only imports and re-exports', () => {
  const text = "import type { A } from './a.ts';\nexport { b } from '../b.ts';\nimport {\n  c,\n} from './c.ts';\nimport x from 'node:fs';\n";
  assert.deepEqual(relativeImports(text), ['./a.ts', '../b.ts', './c.ts']);
});

test('no import cycle in src/, type-only imports included', () => {
  const graph = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const from = relative(SRC, file);
    graph.set(from, relativeImports(readFileSync(file, 'utf8')).map((m) => relative(SRC, resolve(dirname(file), m))));
  }
  assert.deepEqual(cycles(graph), []);
});

const isTestCode = (path: string): boolean =>
  path.endsWith('.test.ts') || path.split('/').includes('testing') || path.startsWith('generated/') ||
  path.startsWith('e2e/') || path.startsWith('bench/') || path.endsWith('/testing.ts');

test('no `as unknown as` outside tests and generated code', () => {
  const found: Record<string, number> = {};
  for (const file of files(SRC)) {
    const path = relative(SRC, file);
    if (isTestCode(path)) continue;
    const n = readFileSync(file, 'utf8').split('\n').filter((line) => /\bas unknown as\b/.test(line)).length;
    if (n > 0) found[path] = n;
  }
  // The one exception: the HTTP/2 listener hands Node's HTTP/2 compatibility objects, adapted to
  // what the handlers read (see its KubeHttp2Request and KubeHttp2Response), to the HTTP/1.1-typed
  // handler chain; typing every handler for both would touch them all for no behaviour.
  assert.deepEqual(found, { 'server/secure-serving.ts': 1 });
});
