// docs/kube-map.md is generated from the source headers (scripts/gen-kube-map.ts): this test fails
// when a non-test source file's header names no Go counterpart, or when the committed map is not
// what the generator makes of the headers now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

test('docs/kube-map.md is current and every source header names its Go counterpart', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'gen-kube-map.ts'), '--check'],
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `scripts/gen-kube-map.ts --check failed:\n${r.stderr}`);
});
