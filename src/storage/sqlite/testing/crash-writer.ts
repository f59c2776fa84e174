// Child process of crash.test.ts: writes and prints "<revision> <key> <value>" for every write
// once it is acknowledged, until it is killed. Fails after <max writes> writes: a test that
// stops reading or killing gets a clear error instead of a writer that fills the disk.
// No Go counterpart: test helper.
import { openSqliteBackend } from '../sqlite-backend.ts';
import { writeAndAcknowledge } from './write-loop.ts';

const [path, tag, max] = process.argv.slice(2);
const maxWrites = Number(max);
if (path === undefined || tag === undefined || !Number.isSafeInteger(maxWrites) || maxWrites <= 0) {
  throw new Error('usage: crash-writer <db path> <tag> <max writes>');
}
const backend = await openSqliteBackend({ path, compactionIntervalMs: 0 });
await writeAndAcknowledge(backend, tag, process.stdout, maxWrites);
throw new Error(`crash-writer ${tag}: made ${maxWrites} writes and was not killed`);
