// src/generated/types/ is generated from src/generated/definitions.gen.ts by
// scripts/generate-types.ts: this test fails when the committed modules are not what the
// generator makes of the definitions now (run `npm run generate:types`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the generated wire types are current', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'generate-types.ts'), '--check'],
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `scripts/generate-types.ts --check failed:\n${r.stderr}`);
});
