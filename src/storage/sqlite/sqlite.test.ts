import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runStorageConformance } from '../testing/conformance.ts';
import { openSqliteBackend } from './sqlite-backend.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

runStorageConformance('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-'));
  dirs.push(dir);
  return openSqliteBackend({ path: join(dir, 'state.db'), ttlSweepIntervalMs: 100 });
});
