// The stamped build: a start with no source change compiles nothing and leaves dist/ untouched.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundle, ensureBuilt } from './build.mjs';

/** A project with two sources, a test and a test helper; `compile` writes dist/cli/main.js and counts. */
function fixture() {
  const root = mkdtempSync(join(tmpdir(), 'kapi-build-'));
  for (const dir of ['src/cli', 'src/e2e/testing']) mkdirSync(join(root, dir), { recursive: true });
  for (const f of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) writeFileSync(join(root, f), '{}');
  writeFileSync(join(root, 'src/cli/main.ts'), 'export {};');
  writeFileSync(join(root, 'src/cli/main.test.ts'), 'export {};');
  writeFileSync(join(root, 'src/e2e/testing/suite.ts'), 'export {};');
  const state = { compiles: 0, lines: [] };
  const run = (code = 0) => ensureBuilt({
    root,
    log: (l) => state.lines.push(l),
    compile: () => {
      state.compiles++;
      mkdirSync(join(root, 'dist/cli'), { recursive: true });
      writeFileSync(join(root, 'dist/cli/main.js'), `// build ${state.compiles}`);
      return code;
    },
  });
  return { root, state, run, close: () => rmSync(root, { recursive: true, force: true }) };
}

/** Moves a file's modification time forward, as an edit does. */
function touch(path) {
  const t = new Date(statSync(path).mtimeMs + 5000);
  utimesSync(path, t, t);
}

test('the first build says so; a second run with no change compiles nothing and leaves dist untouched', (t) => {
  const f = fixture();
  t.after(f.close);
  assert.equal(f.run(), true);
  assert.deepEqual(f.state.lines, ['building kapi (first start)...']);
  const before = statSync(join(f.root, 'dist/cli/main.js')).mtimeMs;
  assert.equal(f.run(), false);
  assert.equal(f.run(), false);
  assert.equal(f.state.compiles, 1);
  assert.deepEqual(f.state.lines, ['building kapi (first start)...']);
  assert.equal(statSync(join(f.root, 'dist/cli/main.js')).mtimeMs, before);
});

const changes = [
  { name: 'a source edited', change: (root) => touch(join(root, 'src/cli/main.ts')), rebuilds: true },
  { name: 'a source added', change: (root) => writeFileSync(join(root, 'src/cli/new.ts'), 'export {};'), rebuilds: true },
  { name: 'a source removed', change: (root) => rmSync(join(root, 'src/cli/main.ts')), rebuilds: true },
  { name: 'tsconfig edited', change: (root) => touch(join(root, 'tsconfig.build.json')), rebuilds: true },
  { name: 'the output removed', change: (root) => rmSync(join(root, 'dist/cli/main.js')), rebuilds: true },
  { name: 'a test edited', change: (root) => touch(join(root, 'src/cli/main.test.ts')), rebuilds: false },
  { name: 'a test helper edited', change: (root) => touch(join(root, 'src/e2e/testing/suite.ts')), rebuilds: false },
];

for (const c of changes) {
  test(`after ${c.name}: ${c.rebuilds ? 'builds again' : 'no build'}`, (t) => {
    const f = fixture();
    t.after(f.close);
    f.run();
    c.change(f.root);
    assert.equal(f.run(), c.rebuilds);
    assert.equal(f.state.compiles, c.rebuilds ? 2 : 1);
    if (c.rebuilds) assert.equal(f.state.lines.at(-1), 'building kapi (sources changed)...');
  });
}

test('a failed build leaves no stamp: the next run builds again', (t) => {
  const f = fixture();
  t.after(f.close);
  assert.throws(() => f.run(2), /the build failed with exit code 2/);
  assert.equal(f.run(), true);
  assert.equal(f.state.compiles, 2);
  assert.equal(f.run(), false);
});

/** The files a module loads before its first line runs: its static imports, followed through the chunks. */
function staticGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // esbuild's static imports: `import ... from "./x.js"` and `import "./x.js"`; dynamic ones are import("...").
    for (const m of text.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[^"'();]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(join(dirname(file), m[1]));
    }
  };
  visit(entry);
  return [...seen];
}

test('the bundled commands load the etcd client and the x509 library only when used', (t) => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const out = mkdtempSync(join(tmpdir(), 'kapi-bundle-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  assert.equal(bundle(root, out), 0);
  for (const entry of ['main.js', 'kube-apiserver.js']) {
    const files = staticGraph(join(out, entry));
    assert.ok(files.length > 1, `${entry} imports its chunks`);
    const eager = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const lazy of ['node_modules/@grpc/grpc-js/', 'node_modules/@grpc/proto-loader/', 'node_modules/@peculiar/x509/']) {
      assert.ok(!eager.includes(lazy), `${entry} loads ${lazy} at start`);
    }
    assert.ok(eager.includes('node_modules/yaml/'), `${entry}: the check sees bundled packages`);
  }
});
