import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { openSqliteBackend } from '../sqlite-backend.ts';
import { writeAndAcknowledge } from './write-loop.ts';

/** A pipe whose reader is stalled: nothing written is taken until release() is called. */
function stalledPipe(): { out: Writable; lines: string[]; release: () => void } {
  const lines: string[] = [];
  const pending: (() => void)[] = [];
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, cb) { lines.push(chunk.toString()); pending.push(() => cb()); },
  });
  return { out, lines, release: () => { for (const cb of pending.splice(0)) cb(); } };
}

describe('crash writer loop', () => {
  it('starts no write before the previous acknowledgement is taken by its reader', async () => {
    const backend = await openSqliteBackend({ path: ':memory:', compactionIntervalMs: 0, ttlSweepIntervalMs: 0 });
    const pipe = stalledPipe();
    const done = writeAndAcknowledge(backend, 't', pipe.out, 30);
    try {
      for (let acked = 1; acked <= 30; acked++) {
        // Several event-loop turns: a loop that only queues its lines would have written all 30.
        for (let i = 0; i < 5; i++) await turn();
        assert.equal(await backend.currentRevision(), acked, `writes with ${acked} acknowledgement(s) printed`);
        assert.equal(pipe.lines.length, acked);
        pipe.release();
      }
      await done;
      assert.equal(await backend.currentRevision(), 30);
      assert.deepEqual(pipe.lines.slice(0, 3), [
        '1 /registry/crash/t-0 value-t-0\n', '2 /registry/crash/t-1 value-t-1\n', '3 /registry/crash/t-1 value-t-2-updated\n',
      ]);
    } finally {
      pipe.release();
      await done.catch(() => {});
      await backend.close();
    }
  });
});
