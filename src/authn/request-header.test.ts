import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestHeaders } from './authenticator.ts';
import { newRequestHeaderReader } from './request-header.ts';

const cfg = { usernameHeaders: ['X-Remote-User', 'X-User'], uidHeaders: ['X-Remote-Uid'], groupHeaders: ['X-Remote-Group', 'X-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] };

describe('request-header reader (headerrequest)', () => {
  const cases: { name: string; headers: Record<string, string | string[]>; want: unknown }[] = [
    { name: 'no username header: no opinion', headers: { 'x-remote-group': 'g' }, want: undefined },
    { name: 'the first non-empty username header', headers: { 'x-remote-user': '', 'x-user': 'bob' }, want: { name: 'bob', groups: [], extra: {} } },
    { name: 'every value of every group header, empties dropped', headers: { 'x-remote-user': 'a', 'x-remote-group': ['g1', '', 'g2'], 'x-group': 'g3' },
      want: { name: 'a', groups: ['g1', 'g2', 'g3'], extra: {} } },
    { name: 'extras: lower-cased, %-unescaped keys; a malformed escape is kept', headers: { 'x-remote-user': 'a', 'x-remote-extra-acme.com%2fx': 'v', 'x-remote-extra-bad%zz': 'w' },
      want: { name: 'a', groups: [], extra: { 'acme.com/x': ['v'], 'bad%zz': ['w'] } } },
    { name: 'the uid', headers: { 'x-remote-user': 'a', 'x-remote-uid': 'u' }, want: { name: 'a', uid: 'u', groups: [], extra: {} } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const headers: Record<string, string | string[]> = { ...c.headers, other: 'kept' };
      const removed: string[][] = [];
      const r = await newRequestHeaderReader(cfg).authenticate({
        headers: headers as RequestHeaders, removeHeaders: (names, prefixes) => { removed.push([...names, ...prefixes]); },
      });
      assert.deepEqual(r?.user, c.want);
      // The headers are cleared only when they named a user.
      assert.equal(removed.length, c.want === undefined ? 0 : 1);
    });
  }
});

describe('request-header reader with the connection\'s header lines', () => {
  it('reads each group header line as one group, even when Node joined them with ", "', async () => {
    // What a proxy sending `X-Remote-Group: a, b` and `X-Remote-Group: c` gives Node: one joined string.
    const lines: Record<string, string[]> = { 'x-remote-user': ['alice'], 'x-remote-group': ['a, b', 'c'], 'x-remote-extra-scopes': ['s1', 's2'] };
    const r = await newRequestHeaderReader(cfg).authenticate({
      headers: { 'x-remote-user': 'alice', 'x-remote-group': 'a, b, c', 'x-remote-extra-scopes': 's1, s2' },
      headerValues: (name) => lines[name.toLowerCase()] ?? [],
    });
    assert.deepEqual(r?.user, { name: 'alice', groups: ['a, b', 'c'], extra: { scopes: ['s1', 's2'] } });
  });
});
