import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openSqliteBackend } from './sqlite-backend.ts';

const writer = fileURLToPath(new URL('./testing/crash-writer.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'kapi-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Ack { readonly revision: number; readonly key: string; readonly value: string }

/**
 * The writer fails after this many writes per acknowledgement the test waits for. It never runs
 * more than one pipe buffer (a few hundred lines) ahead of what the test has read, so reaching
 * the bound means it kept writing without being read or killed: the test fails instead of hanging.
 */
const MAX_WRITES_PER_ACK = 10;

/** Runs the writer until it has acknowledged `count` writes, then kills it with SIGKILL. */
function writeThenKill(path: string, tag: string, count: number): Promise<Ack[]> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', writer, path, tag, String(count * MAX_WRITES_PER_ACK)];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const acks: Ack[] = [];
    let buf = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        const [rev, key, value] = line.split(' ');
        acks.push({ revision: Number(rev), key: key ?? '', value: value ?? '' });
      }
      if (acks.length >= count && !killed) killed = child.kill('SIGKILL');
    });
    child.on('error', reject);
    // 'close', not 'exit': the error message needs all of stderr.
    child.on('close', (code, signal) => {
      if (killed && signal === 'SIGKILL') resolve(acks);
      else reject(new Error(`writer ${tag} ended (code ${String(code)}, signal ${String(signal)}) after ${acks.length} of ${count} acknowledgements: ${stderr}`));
    });
  });
}

describe('sqlite backend crash safety', () => {
  it('keeps every acknowledged write after kill -9, across two crashes', async () => {
    const path = join(dir, 'state.db');
    const first = await writeThenKill(path, 'a', 3000);
    const second = await writeThenKill(path, 'b', 3000);
    assert.ok(second[0]!.revision > first[first.length - 1]!.revision, 'revisions continue after a restart');
    const backend = await openSqliteBackend({ path, compactionIntervalMs: 0 });
    try {
      const acks = [...first, ...second];
      assert.ok(await backend.currentRevision() >= acks[acks.length - 1]!.revision);
      for (const ack of acks) {
        const res = await backend.range(ack.key, { revision: ack.revision });
        assert.deepEqual(res.kvs.map((kv) => [kv.modRevision, kv.value]), [[ack.revision, ack.value]], `write ${ack.revision}`);
      }
    } finally {
      await backend.close();
    }
  });
});
