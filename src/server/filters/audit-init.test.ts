import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestState } from '../../endpoints/request/state.ts';
import { withAuditInit } from './audit-init.ts';

/** Runs the filter on a request with the given Audit-ID headers; returns the response's Audit-Id. */
async function auditID(sent: readonly string[], preset?: string): Promise<unknown> {
  const headers = new Map<string, unknown>(preset === undefined ? [] : [['audit-id', preset]]);
  const res = {
    hasHeader: (k: string) => headers.has(k.toLowerCase()),
    setHeader: (k: string, v: unknown) => { headers.set(k.toLowerCase(), v); },
  } as unknown as ServerResponse;
  const req = { headersDistinct: sent.length === 0 ? {} : { 'audit-id': [...sent] } } as unknown as IncomingMessage;
  let passed = false;
  await withAuditInit(() => 'generated')(() => { passed = true; return Promise.resolve(); })(req, res, new RequestState('/api'));
  assert.equal(passed, true);
  return headers.get('audit-id');
}

describe('withAuditInit', () => {
  const cases: { name: string; sent: string[]; preset?: string; want: string }[] = [
    { name: 'no Audit-ID: a new one', sent: [], want: 'generated' },
    { name: 'the client\'s Audit-ID is echoed', sent: ['abc-123'], want: 'abc-123' },
    { name: 'repeated: the first, as Go\'s Header.Get', sent: ['first', 'second'], want: 'first' },
    { name: 'empty: a new one', sent: [''], want: 'generated' },
    { name: 'long values are echoed whole', sent: ['x'.repeat(5000)], want: 'x'.repeat(5000) },
    { name: 'an Audit-Id already set is kept', sent: ['mine'], preset: 'outer', want: 'outer' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      assert.equal(await auditID(c.sent, c.preset), c.want);
    });
  }

  it('makes UUIDs by default', async () => {
    const headers = new Map<string, unknown>();
    const res = { hasHeader: () => false, setHeader: (k: string, v: unknown) => { headers.set(k, v); } } as unknown as ServerResponse;
    await withAuditInit()(() => Promise.resolve())({ headersDistinct: {} } as IncomingMessage, res, new RequestState('/api'));
    assert.match(String(headers.get('Audit-Id')), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
