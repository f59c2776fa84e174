// `npm run build` (and so `npm start`, `npm test` and `npm run bench`): compiles src/ into dist/
// with tsc only when a build input changed since the last build. The check stats the inputs
// (paths, sizes, modification times) and compares them with a stamp written after the last
// successful build: a few milliseconds, where even an incremental tsc needs seconds to find
// that nothing changed.
// After tsc, the two commands (dist/cli/main.js, dist/cli/kube-apiserver.js) are replaced by
// esbuild bundles of the same sources: loading ~460 modules one by one (resolution, file reads,
// per-module compilation) was most of the start-up. Code a run may not need is behind dynamic
// import() and lands in dist/cli/chunks/, loaded on first use. Source maps sit next to the
// bundles (`node --enable-source-maps dist/cli/main.js` uses them). The rest of dist/ stays
// tsc's output, for the bench, the tests and the library entry point.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const STAMP = '.build-stamp';
/** Files besides src/ whose change changes the output. */
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs'];

/**
 * Whether a file under src/ goes into dist through tsconfig.build.json: sources (and JSON, which
 * they may import), but not tests and test helpers.
 */
function isBuildInput(rel) {
  return (rel.endsWith('.ts') || rel.endsWith('.json')) && !rel.endsWith('.test.ts') && !rel.split('/').includes('testing');
}

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** A digest of every build input's path, size and modification time. */
export function fingerprint(root) {
  const hash = createHash('sha256');
  const files = walk(join(root, 'src'), []).map((p) => relative(root, p).split('\\').join('/')).filter((r) => isBuildInput(r.slice(4)));
  files.sort();
  for (const rel of [...CONFIG_FILES, ...files]) {
    const p = join(root, rel);
    if (!existsSync(p)) continue;
    const st = statSync(p);
    hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/**
 * Builds `root` unless its dist/ was built from the current inputs. `compile` runs the compiler
 * and returns its exit code; `log` gets one line saying why a build runs. Resolves to whether a
 * build ran; throws when the compiler fails (and leaves no stamp, so the next run builds again).
 */
export function ensureBuilt({ root, compile, log, entry = 'dist/cli/main.js' }) {
  const stampPath = join(root, 'dist', STAMP);
  const current = fingerprint(root);
  const previous = existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : undefined;
  if (previous === current && existsSync(join(root, entry))) return false;
  log(previous === undefined ? 'building kapi (first start)...' : 'building kapi (sources changed)...');
  // A build cut short must not look complete.
  rmSync(stampPath, { force: true });
  const code = compile();
  if (code !== 0) throw new Error(`the build failed with exit code ${code}`);
  writeFileSync(stampPath, `${current}\n`);
  return true;
}

function runTsc(root) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  return r.status ?? 1;
}

/** The commands bundled over tsc's output. */
const BUNDLE_ENTRIES = ['src/cli/main.ts', 'src/cli/kube-apiserver.ts'];
/** Packages left to Node's resolver: native addons cannot be bundled. */
const BUNDLE_EXTERNAL = ['better-sqlite3'];

/**
 * Bundles the commands into dist/cli with esbuild (ESM, code splitting for the lazily imported
 * modules). Bundled CommonJS packages call require() for Node's built-ins, which an ES module
 * lacks: the banner gives them one. Returns an exit code, as runTsc does.
 */
export function bundle(root, outdir = join(root, 'dist', 'cli')) {
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
  try {
    buildSync({
      absWorkingDir: root, entryPoints: BUNDLE_ENTRIES, outdir, entryNames: '[name]', chunkNames: 'chunks/[name]-[hash]',
      bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', sourcemap: true,
      external: BUNDLE_EXTERNAL, logLevel: 'error', legalComments: 'none', minifyWhitespace: true, minifySyntax: true,
      banner: { js: "import { createRequire as __kapiCreateRequire } from 'node:module'; const require = __kapiCreateRequire(import.meta.url);" },
    });
    return 0;
  } catch (err) {
    process.stderr.write(`esbuild: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  try {
    ensureBuilt({ root, compile: () => { const c = runTsc(root); return c !== 0 ? c : bundle(root); }, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
