// The write loop of crash-writer.ts, apart so that its pacing can be tested in-process.
// No Go counterpart: test helper.
import type { Writable } from 'node:stream';
import type { Backend } from '../../backend.ts';

/**
 * Writes keys `/registry/crash/<tag>-<i>` (every third write updates the previous key at the
 * current revision) and prints "<revision> <key> <value>" to `out` for each acknowledged write,
 * until `maxWrites` writes. Rejects if a write does not succeed or `out` fails.
 *
 * Each line is handed to the OS before the next write starts. The backend's promises settle
 * without an event-loop turn, so a loop that only queued its lines would never let `out` flush
 * them once its pipe is full: the reader would stop receiving acknowledgements while the loop
 * kept writing to the store (and buffering lines in memory) for ever.
 */
export async function writeAndAcknowledge(backend: Backend, tag: string, out: Writable, maxWrites: number): Promise<void> {
  for (let i = 0; i < maxWrites; i++) {
    const key = `/registry/crash/${tag}-${i}`;
    const value = `value-${tag}-${i}`;
    const res = i % 3 === 2
      ? await backend.update(`/registry/crash/${tag}-${i - 1}`, `${value}-updated`, await backend.currentRevision())
      : await backend.create(key, value);
    if (!res.succeeded || res.kv === undefined) throw new Error(`write ${i} failed`);
    const line = `${res.revision} ${res.kv.key} ${res.kv.value}\n`;
    await new Promise<void>((resolve, reject) => {
      out.write(line, (err) => { if (err) reject(err); else resolve(); });
    });
  }
}
