// The audit log backend: one event a line, as JSON or kube's legacy text, to stdout ("-") or a
// file rotated as kube's lumberjack writer rotates it: past --audit-log-maxsize MB the file is
// renamed <name>-<UTC time 2006-01-02T15-04-05.000><ext> and a new one started; backups beyond
// --audit-log-maxbackup or older than --audit-log-maxage days are removed, and gzipped with
// --audit-log-compress. Writes are synchronous, so a blocking mode's request waits for its line.
// Counterpart of k8s.io/apiserver/plugin/pkg/audit/log and gopkg.in/natefinch/lumberjack.v2.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { encodeJSON } from '../apimachinery/runtime/serializer/json.ts';
import { goQuote } from '../apimachinery/goformat/index.ts';
import type { AuditEvent } from './types.ts';

export type LogFormat = 'json' | 'legacy';

export interface LogFileOptions {
  readonly path: string;
  /** Megabytes; 0 is lumberjack's default, 100. */
  readonly maxSizeMB: number;
  /** Backups kept; 0: all. */
  readonly maxBackups: number;
  /** Days a backup is kept (by the time in its name); 0: no limit. */
  readonly maxAgeDays: number;
  readonly compress: boolean;
}

const MB = 1024 * 1024;

/** time.RFC3339Nano of a MicroTime string: Go trims trailing zeros of the fraction. */
function rfc3339Nano(micro: string): string {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(micro);
  if (m === null) return micro;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return `${m[1]}${frac === '' ? '' : `.${frac}`}Z`;
}

/** EventString: kube's one-line legacy format. */
export function legacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if ((ev.user.username ?? '') !== '') {
    username = ev.user.username ?? '';
    if ((ev.user.groups ?? []).length > 0) groups = (ev.user.groups ?? []).map(goQuote).join(',');
  }
  let as = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser !== undefined) {
    as = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups !== undefined) asGroups = ev.impersonatedUser.groups.map(goQuote).join(',');
  }
  const namespace = (ev.objectRef?.namespace ?? '') !== '' ? ev.objectRef?.namespace ?? '' : '<none>';
  const response = ev.responseStatus !== undefined ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ip=${goQuote(ip)} ` +
    `method=${goQuote(ev.verb)} user=${goQuote(username)} groups=${goQuote(groups)} as=${goQuote(as)} asgroups=${goQuote(asGroups)} ` +
    `user-agent=${goQuote(ev.userAgent ?? '')} namespace=${goQuote(namespace)} uri=${goQuote(ev.requestURI)} response="${response}"\n`;
}

export function formatEvent(ev: AuditEvent, format: LogFormat): string {
  return format === 'legacy' ? legacyLine(ev) : encodeJSON(ev);
}

/** "2006-01-02T15-04-05.000" in UTC, lumberjack's backup time format. */
function backupStamp(d: Date): string {
  return d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
}

/** A size-rotated log file (lumberjack.Logger). */
export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly max: number;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;

  constructor(private readonly opts: LogFileOptions) {
    this.max = (opts.maxSizeMB > 0 ? opts.maxSizeMB : 100) * MB;
    this.dir = dirname(opts.path);
    this.ext = extname(opts.path);
    this.prefix = `${basename(opts.path, this.ext)}-`;
  }

  /** ensureLogFile: the directory and the file exist (0700 / 0600); throws an Error saying why not. */
  open(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.fd = openSync(this.opts.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  write(text: string): void {
    const bytes = Buffer.from(text);
    if (bytes.length > this.max) throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.max}`);
    if (this.fd === undefined) this.open();
    if (this.size + bytes.length > this.max) this.rotate();
    const fd = this.fd;
    if (fd === undefined) throw new Error('audit log file not open');
    writeSync(fd, bytes);
    this.size += bytes.length;
  }

  private rotate(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    renameSync(this.opts.path, join(this.dir, `${this.prefix}${backupStamp(new Date())}${this.ext}`));
    this.open();
    this.mill();
  }

  /** Removes backups beyond the count or age limits, compresses the rest when asked. */
  private mill(): void {
    const backups: { name: string; time: number }[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(this.prefix)) continue;
      const stamp = name.slice(this.prefix.length).replace(/\.gz$/, '');
      if (!stamp.endsWith(this.ext)) continue;
      const t = Date.parse(`${stamp.slice(0, stamp.length - this.ext.length).replace(/^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-/, '$1:$2:')}Z`);
      if (!Number.isNaN(t)) backups.push({ name, time: t });
    }
    backups.sort((a, b) => b.time - a.time);
    const remove = new Set<string>();
    if (this.opts.maxBackups > 0) for (const b of backups.slice(this.opts.maxBackups)) remove.add(b.name);
    if (this.opts.maxAgeDays > 0) {
      const cutoff = Date.now() - this.opts.maxAgeDays * 24 * 3600 * 1000;
      for (const b of backups) if (b.time < cutoff) remove.add(b.name);
    }
    for (const name of remove) unlinkSync(join(this.dir, name));
    if (!this.opts.compress) return;
    for (const b of backups) {
      if (remove.has(b.name) || b.name.endsWith('.gz')) continue;
      const p = join(this.dir, b.name);
      writeFileSync(`${p}.gz`, gzipSync(readFileSync(p)), { mode: statSync(p).mode });
      unlinkSync(p);
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Where lines go: stdout for "-", else the rotated file. */
export interface LineWriter { write(text: string): void; close(): void }

export function newLineWriter(opts: LogFileOptions): LineWriter {
  if (opts.path === '-') return { write: (t) => { process.stdout.write(t); }, close: () => {} };
  const f = new RotatingFile(opts);
  f.open();
  return f;
}
