// The audit log file: rotated past its size as kube's lumberjack writer does (backup names with
// the UTC time, count and compression limits), and kube's legacy one-line format.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { legacyLine, RotatingFile } from './log-backend.ts';
import type { AuditEvent } from './types.ts';

const MB = 1024 * 1024;
/** A line of ~100 KiB: 11 of them pass 1 MB. */
const line = (i: number): string => `${String(i).padStart(6, '0')}${'x'.repeat(100 * 1024)}\n`;

function withDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-audit-log-'));
  try { fn(dir); } finally { rmSync(dir, { recursive: true, force: true }); }
}

describe('audit log rotation', () => {
  it('rotates past maxsize into a backup named with the UTC time, and the file is 0600', () => {
    withDir((dir) => {
      const f = new RotatingFile({ path: join(dir, 'audit.log'), maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
      f.open();
      for (let i = 0; i < 12; i++) f.write(line(i));
      f.close();
      const names = readdirSync(dir).sort();
      assert.equal(names.length, 2, names.join(' '));
      assert.match(names[0] ?? '', /^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log$/);
      assert.equal(names[1], 'audit.log');
      const backup = readFileSync(join(dir, names[0] ?? ''), 'utf8');
      assert.ok(backup.startsWith('000000') && statSync(join(dir, names[0] ?? '')).size <= MB, 'the backup holds the first lines, within the limit');
      assert.ok(readFileSync(join(dir, 'audit.log'), 'utf8').startsWith('000010'), 'the new file starts with the line that did not fit');
      assert.equal(statSync(join(dir, 'audit.log')).mode & 0o777, 0o600);
    });
  });

  it('keeps at most maxbackup backups, and gzips them with compress', () => {
    withDir((dir) => {
      const f = new RotatingFile({ path: join(dir, 'audit.log'), maxSizeMB: 1, maxBackups: 1, maxAgeDays: 0, compress: true });
      f.open();
      // Three rotations, a few ms apart so the backups' names differ.
      for (let i = 0; i < 40; i++) {
        f.write(line(i));
        const until = Date.now() + 2;
        while (Date.now() < until) { /* distinct millisecond stamps */ }
      }
      f.close();
      const backups = readdirSync(dir).filter((n) => n !== 'audit.log');
      assert.equal(backups.length, 1, backups.join(' '));
      assert.match(backups[0] ?? '', /\.log\.gz$/);
      assert.ok(gunzipSync(readFileSync(join(dir, backups[0] ?? ''))).toString('utf8').startsWith('0000'), 'the backup decompresses to log lines');
    });
  });
});

function withoutResponse(e: AuditEvent): AuditEvent {
  const { responseStatus: _r, objectRef: _o, ...rest } = e;
  return rest;
}

describe('the legacy format', () => {
  const ev: AuditEvent = {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'id-1', stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/default/pods', verb: 'list', user: { username: 'alice', groups: ['a', 'b'] },
    sourceIPs: ['10.0.0.1', '127.0.0.1'], userAgent: 'kubectl/v1.36', objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: '2026-11-25T10:39:47.337100Z', stageTimestamp: '2026-11-25T10:39:47.339282Z',
  };
  const cases = [
    { name: 'a complete event', ev, want: '2026-11-25T10:39:47.3371Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="alice" groups="\\"a\\",\\"b\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.36" namespace="default" uri="/api/v1/namespaces/default/pods" response="200"\n' },
    { name: 'no user, no response yet, impersonation', ev: withoutResponse({ ...ev, user: {}, stage: 'RequestReceived', impersonatedUser: { username: 'bob' } }),
      want: '2026-11-25T10:39:47.3371Z AUDIT: id="id-1" stage="RequestReceived" ip="10.0.0.1" method="list" user="<none>" groups="<none>" as="bob" asgroups="<lookup>" user-agent="kubectl/v1.36" namespace="<none>" uri="/api/v1/namespaces/default/pods" response="<deferred>"\n' },
  ];
  for (const c of cases) it(c.name, () => { assert.equal(legacyLine(c.ev), c.want); });
});
