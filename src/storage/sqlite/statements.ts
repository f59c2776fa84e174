// Every SQL statement of the sqlite backend, prepared once per database.
// No Go counterpart: the embedded store.
import type Database from 'better-sqlite3';

/** A version of a key as stored in kv_log. */
export interface LogRow {
  rev: number;
  key: string;
  created: number;
  deleted: number;
  prev_rev: number;
  expires_at: number;
  /** A BLOB (Buffer) since values are bytes; TEXT (string) in files written by earlier builds. */
  value: Buffer | string;
}

/** A log row joined with the version it replaced (for watch replay). */
export interface HistoryRow extends LogRow {
  p_rev: number | null;
  p_created: number | null;
  p_expires_at: number | null;
  p_value: Buffer | string | null;
}

const COLS = 'l.rev, l.key, l.created, l.deleted, l.prev_rev, l.expires_at, l.value';
/** Latest version of each key in [start, end) at or below a revision (a read in the past). */
const AT_REV = 'SELECT key, MAX(rev) AS rev FROM kv_log WHERE key >= ? AND key < ? AND rev <= ? GROUP BY key';

export function prepareStatements(db: Database.Database): Statements {
  return {
    getCurrent: db.prepare<[string], LogRow>(
      `SELECT ${COLS} FROM kv_current c JOIN kv_log l ON l.rev = c.rev WHERE c.key = ?`),
    rangeCurrent: db.prepare<[string, string, number], LogRow>(
      `SELECT ${COLS} FROM kv_current c JOIN kv_log l ON l.rev = c.rev
       WHERE c.key >= ? AND c.key < ? ORDER BY c.key LIMIT ?`),
    countCurrent: db.prepare<[string, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM kv_current WHERE key >= ? AND key < ?'),
    getAt: db.prepare<[string, number], LogRow>(
      `SELECT ${COLS} FROM kv_log l WHERE l.key = ? AND l.rev <= ? ORDER BY l.rev DESC LIMIT 1`),
    rangeAt: db.prepare<[string, string, number, number], LogRow>(
      `SELECT ${COLS} FROM (${AT_REV}) m JOIN kv_log l ON l.rev = m.rev
       WHERE l.deleted = 0 ORDER BY m.key LIMIT ?`),
    countAt: db.prepare<[string, string, number], { n: number }>(
      `SELECT COUNT(*) AS n FROM (${AT_REV}) m JOIN kv_log l ON l.rev = m.rev WHERE l.deleted = 0`),
    history: db.prepare<[number, string, string, number], HistoryRow>(
      `SELECT ${COLS}, p.rev AS p_rev, p.created AS p_created, p.expires_at AS p_expires_at, p.value AS p_value
       FROM kv_log l LEFT JOIN kv_log p ON p.rev = l.prev_rev
       WHERE l.rev > ? AND l.key >= ? AND l.key < ? ORDER BY l.rev LIMIT ?`),
    insertLog: db.prepare<[number, string, number, number, number, number, Buffer | string]>(
      'INSERT INTO kv_log (rev, key, created, deleted, prev_rev, expires_at, value) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    insertCurrent: db.prepare<[string, number, number]>(
      'INSERT INTO kv_current (key, rev, expires_at) VALUES (?, ?, ?)'),
    updateCurrent: db.prepare<[number, number, string]>(
      'UPDATE kv_current SET rev = ?, expires_at = ? WHERE key = ?'),
    deleteCurrent: db.prepare<[string]>('DELETE FROM kv_current WHERE key = ?'),
    expired: db.prepare<[number, number], { key: string; rev: number }>(
      'SELECT key, rev FROM kv_current WHERE expires_at > 0 AND expires_at <= ? ORDER BY expires_at LIMIT ?'),
    maxRev: db.prepare<[], { rev: number | null }>('SELECT MAX(rev) AS rev FROM kv_log'),
    getMeta: db.prepare<[string], { value: number }>('SELECT value FROM kv_meta WHERE name = ?'),
    setMeta: db.prepare<[string, number]>(
      'INSERT INTO kv_meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value'),
    // Drops versions in (lo, hi] that a newer version at or below the compaction revision
    // supersedes, and tombstones at or below it (their key is absent at every readable revision).
    compactChunk: db.prepare<[number, number, number, number]>(
      `DELETE FROM kv_log WHERE rev > ? AND rev <= ? AND rev <= ? AND (deleted = 1 OR rev <
         (SELECT MAX(l2.rev) FROM kv_log l2 WHERE l2.key = kv_log.key AND l2.rev <= ?))`),
  };
}

export interface Statements {
  readonly getCurrent: Database.Statement<[string], LogRow>;
  readonly rangeCurrent: Database.Statement<[string, string, number], LogRow>;
  readonly countCurrent: Database.Statement<[string, string], { n: number }>;
  readonly getAt: Database.Statement<[string, number], LogRow>;
  readonly rangeAt: Database.Statement<[string, string, number, number], LogRow>;
  readonly countAt: Database.Statement<[string, string, number], { n: number }>;
  readonly history: Database.Statement<[number, string, string, number], HistoryRow>;
  readonly insertLog: Database.Statement<[number, string, number, number, number, number, Buffer | string]>;
  readonly insertCurrent: Database.Statement<[string, number, number]>;
  readonly updateCurrent: Database.Statement<[number, number, string]>;
  readonly deleteCurrent: Database.Statement<[string]>;
  readonly expired: Database.Statement<[number, number], { key: string; rev: number }>;
  readonly maxRev: Database.Statement<[], { rev: number | null }>;
  readonly getMeta: Database.Statement<[string], { value: number }>;
  readonly setMeta: Database.Statement<[string, number]>;
  readonly compactChunk: Database.Statement<[number, number, number, number]>;
}
