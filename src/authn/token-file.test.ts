import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTokenFile, newStaticTokenAuthenticator, parseTokenFile } from './token-file.ts';

describe('parseTokenFile', () => {
  const cases: { name: string; text: string; token: string; want: unknown }[] = [
    { name: 'three columns', text: 'tok1,alice,uid1\n', token: 'tok1', want: { name: 'alice', uid: 'uid1', groups: [] } },
    { name: 'quoted groups', text: 'tok2,bob,uid2,"system:masters,dev"\n', token: 'tok2',
      want: { name: 'bob', uid: 'uid2', groups: ['system:masters', 'dev'] } },
    { name: 'single group', text: 'tok3,carol,,ops\n', token: 'tok3', want: { name: 'carol', uid: '', groups: ['ops'] } },
    { name: 'empty group column is one empty group', text: 'tok4,dan,u,\n', token: 'tok4', want: { name: 'dan', uid: 'u', groups: [''] } },
    { name: 'extra columns ignored', text: 'tok5,eve,u,g,extra\n', token: 'tok5', want: { name: 'eve', uid: 'u', groups: ['g'] } },
    { name: 'later duplicate wins', text: 'tok,a,1\ntok,b,2\n', token: 'tok', want: { name: 'b', uid: '2', groups: [] } },
    { name: 'unknown token', text: 'tok,a,1\n', token: 'other', want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(parseTokenFile(c.text, '/f.csv').tokens.get(c.token), c.want));
  }

  it('skips and reports an empty token, reports duplicates', () => {
    const parsed = parseTokenFile(',nobody,0\nx,a,1\nx,b,2\n', '/f.csv');
    assert.equal(parsed.tokens.size, 1);
    assert.deepEqual(parsed.warnings, [
      "empty token has been found in token file '/f.csv', record number '1'",
      "duplicate token has been found in token file '/f.csv', record number '3'",
    ]);
  });

  const errors: { name: string; text: string; want: string }[] = [
    { name: 'too few columns', text: 'tok,alice\n', want: "token file '/f.csv' must have at least 3 columns (token, user name, user uid), found 2" },
    { name: 'csv error', text: 'to"k,a,b\n', want: 'parse error on line 1, column 3: bare " in non-quoted-field' },
  ];
  for (const c of errors) it(`rejects: ${c.name}`, () => assert.throws(() => parseTokenFile(c.text, '/f.csv'), { message: c.want }));
});

describe('loadTokenFile', () => {
  it('reads a file and authenticates its tokens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kapi-tokens-'));
    try {
      const path = join(dir, 'tokens.csv');
      await writeFile(path, 'secret,jane,42,"a,b"\n');
      const authn = newStaticTokenAuthenticator((await loadTokenFile(path)).tokens);
      assert.deepEqual(await authn.authenticateToken('secret'), { user: { name: 'jane', uid: '42', groups: ['a', 'b'] } });
      assert.equal(await authn.authenticateToken('nope'), undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('fails for a missing file as Go does', async () => {
    await assert.rejects(loadTokenFile('/nonexistent/tokens.csv'), { message: 'open /nonexistent/tokens.csv: no such file or directory' });
  });
});
