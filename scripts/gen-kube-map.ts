// Writes docs/kube-map.md from the source headers (see kube-map.ts), or with --check only says
// whether the committed map is current and every header parses (exit 1 and the reasons if not).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readHeaders, renderMap, unparseable } from './kube-map.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'docs', 'kube-map.md');
const headers = readHeaders(root);
const missing = unparseable(headers);
const map = renderMap(headers);

if (missing.length > 0) {
  console.error(`These files' first comment lines name no Go counterpart (an import path such as k8s.io/apiserver/pkg/..., ` +
    `a kubernetes path such as pkg/registry/..., a qualified name such as metav1.Time, or "No Go counterpart"):`);
  for (const f of missing) console.error(`  ${f}`);
}
if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(target, 'utf8'); } catch { /* missing: stale */ }
  if (current !== map) console.error('docs/kube-map.md differs from what the headers give: run `npm run generate:kube-map`.');
  process.exit(missing.length > 0 || current !== map ? 1 : 0);
}
writeFileSync(target, map);
console.log(`wrote ${target} (${headers.length} files)`);
process.exit(missing.length > 0 ? 1 : 0);
