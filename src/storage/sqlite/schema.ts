// The on-disk layout of the sqlite backend: a revision log (like etcd's MVCC key space or k3s
// kine's table) plus a "current" index of the newest live revision of each key.
// No Go counterpart: the embedded store (its layout follows github.com/k3s-io/kine).
import type Database from 'better-sqlite3';

/** How hard a commit waits for the disk before it is acknowledged. */
export type SynchronousLevel = 'NORMAL' | 'FULL';

const DDL = `
CREATE TABLE IF NOT EXISTS kv_log (
  rev        INTEGER PRIMARY KEY,          -- the global revision of this write
  key        TEXT    NOT NULL,
  created    INTEGER NOT NULL,             -- createRevision of the key's current life
  deleted    INTEGER NOT NULL DEFAULT 0,   -- 1: a tombstone (delete event)
  prev_rev   INTEGER NOT NULL DEFAULT 0,   -- rev of the version this write replaced (prevKv), 0: none
  expires_at INTEGER NOT NULL DEFAULT 0,   -- ms since the epoch, 0: never
  value      TEXT    NOT NULL
);
-- Reads at an old revision, compaction and per-key history all seek by (key, rev).
CREATE INDEX IF NOT EXISTS kv_log_key_rev ON kv_log(key, rev);
-- Newest live version of every key: reads at the newest revision never scan the log.
CREATE TABLE IF NOT EXISTS kv_current (
  key        TEXT    PRIMARY KEY,
  rev        INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kv_current_expiry ON kv_current(expires_at) WHERE expires_at > 0;
CREATE TABLE IF NOT EXISTS kv_meta (
  name  TEXT    PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

export function applySchema(db: Database.Database, synchronous: SynchronousLevel): void {
  // One process owns the file: the revision counter and watch notifications live in its memory.
  // Exclusive locking also lets WAL run without a shared-memory index.
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  // NORMAL (default): in WAL mode a commit is written to the WAL file before it returns, so it is
  // in the OS page cache and survives the process being killed (kill -9); only an OS crash or power
  // loss can drop the last commits, and never corrupts the file. FULL also fsyncs every commit, as
  // etcd does, at a large cost in write throughput.
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('temp_store = MEMORY');
  db.exec(DDL);
}
