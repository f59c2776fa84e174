// Child process of crash.test.ts: writes forever and prints "<revision> <key> <value>" for every
// write once it is acknowledged, until it is killed.
import { openSqliteBackend } from '../sqlite-backend.ts';

const [path, tag] = process.argv.slice(2);
if (path === undefined || tag === undefined) throw new Error('usage: crash-writer <db path> <tag>');
const backend = await openSqliteBackend({ path, compactionIntervalMs: 0 });
for (let i = 0; ; i++) {
  const key = `/registry/crash/${tag}-${i}`;
  const value = `value-${tag}-${i}`;
  const res = i % 3 === 2
    ? await backend.update(`/registry/crash/${tag}-${i - 1}`, `${value}-updated`, await backend.currentRevision())
    : await backend.create(key, value);
  if (!res.succeeded || res.kv === undefined) throw new Error(`write ${i} failed`);
  // stdout is a pipe: on Linux the write is synchronous, so a printed line means an acknowledged write.
  process.stdout.write(`${res.revision} ${res.kv.key} ${res.kv.value}\n`);
}
